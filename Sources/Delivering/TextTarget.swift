/// One way of putting text where the user is: typed into the focused window, or put on the clipboard.
public protocol TextTarget: Sendable {
    /// What the `Delivered` signal names it.
    var method: DeliveryMethod { get }

    /// Puts `text` there exactly as given: every character arrives as itself, none is interpreted.
    /// - Throws: `DeliveryError` when nothing, or not all of it, can be known to have arrived.
    func deliver(_ text: String) async throws(DeliveryError)
}
