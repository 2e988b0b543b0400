import Delivering
import Recording

/// Takes each processed memo's text where `Output` (or the recording's `ProcessTo`) sends it, and reports how:
/// `delivered` with the method, or `notDelivered` saying what to do next. The text itself goes only to the window
/// or the clipboard, never into an event.
/// With `Live`, only what was not typed while spoken goes at Send.
public struct DeliveryReporter: Reporting {
    /// A memo's written text once processed; nil while it has none.
    public typealias MemoText = @Sendable (RecordingID) -> String?

    let text: MemoText
    let choice: OutputChoice
    let delivery: any TextDelivering
    let liveTyping: LiveTyping
    let listener: any DictationListener

    public init(
        text: @escaping MemoText, choice: OutputChoice, delivery: any TextDelivering, liveTyping: LiveTyping,
        listener: any DictationListener
    ) {
        self.text = text
        self.choice = choice
        self.delivery = delivery
        self.liveTyping = liveTyping
        self.listener = listener
    }

    public func processed(_ recording: RecordingID) {
        _ = deliver(recording)
    }

    /// What `processed` starts: the delivery of `recording`'s text, which a test awaits.
    func deliver(_ recording: RecordingID) -> Task<Void, Never>? {
        let output = choice.takeOutput(of: recording)
        // An empty transcript delivers nothing: the result's banner already says no speech was recognized.
        guard output != .memo, let text = text(recording), !text.isEmpty else { return nil }
        let typing = choice.typing
        let space = choice.spaceAfterText ? " " : ""
        return Task { [delivery, liveTyping, listener] in
            var rest = text
            var method: DeliveryMethod?
            if let live = await liveTyping.finish(recording) {
                let typedIsTheStart = text.hasPrefix(live.typed)
                rest = typedIsTheStart ? String(text.dropFirst(live.typed.count)) : text
                guard !live.failed, typedIsTheStart else {
                    // Typing stopped (notDelivered said so then) or typed other words than the memo's: the rest is
                    // pasted by hand.
                    _ = try? await delivery.deliver(rest, to: .clipboard, typing: typing)
                    Log.info("Memo \(recording): what was not typed while spoken is on the clipboard")
                    return
                }
                method = live.method
            }
            do throws(DeliveryError) {
                if let delivered = try await delivery.deliver(rest + space, to: output, typing: typing) {
                    method = delivered.method
                    if delivered.newLines != .kept { await listener.dictationChanged(.newLinesAsSpaces(recording, delivered.newLines)) }
                }
                guard let method else { return }
                Log.info("Delivered memo \(recording) through \(method.rawValue)")
                await listener.dictationChanged(.delivered(recording, method))
            } catch {
                Log.warning("Memo \(recording) not delivered: \(error.message)")
                await listener.dictationChanged(.notDelivered(recording, reason: error.message))
            }
        }
    }

    public func stateChanged(_ snapshot: RecorderSnapshot) {}
    public func timerStarted(_ snapshot: RecorderSnapshot) {}
    public func failed(_ error: RecordingError, locale: String) {}
    public func inputMoved(to source: String) {}
}
