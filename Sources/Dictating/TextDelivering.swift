import Delivering

/// Where dictated text is put: `Dictation` in notulad, a double in tests.
public protocol TextDelivering: Sendable {
    /// Delivers `text` to `output` after the deliveries asked for before.
    /// - Returns: How it arrived; nil for `.memo` or an empty text, which go nowhere.
    /// - Throws: Why it could not arrive.
    func deliver(_ text: String, to output: TextOutput, typing: TypingChoice) async throws(DeliveryError) -> Dictation.Delivery?
}

extension Dictation: TextDelivering {}
