import DBus
import Delivering
import Memos
import Notifying
import NotulaContract
import Recording

/// Takes each processed memo's text where `Output` (or the recording's `ProcessTo`) sends it, and reports how:
/// `Delivered` with the method, or `Failed` with `OutputUnavailable` and a banner saying what to do next. The
/// text itself goes only to the window or the clipboard, never into a signal.
/// With `Live`, only what was not typed while spoken goes at Send.
struct DeliveryReporter: Reporting {
    let bus: Bus
    let memos: MemoLibrary
    let notifier: Notifier
    let choice: OutputChoice
    let dictation: Dictation
    let liveTyping: LiveTyping

    func processed(_ recording: RecordingID) {
        let output = choice.takeOutput(of: recording)
        // An empty transcript delivers nothing: the result's banner already says no speech was recognized.
        guard output != .memo, let text = memos.assumeIsolated({ $0.text(of: recording) }), !text.isEmpty else { return }
        let typing = choice.typing
        let space = choice.spaceAfterText ? " " : ""
        let memo = MemoLibrary.path(of: recording.rawValue)
        Task { [bus, notifier, dictation, liveTyping] in
            var rest = text
            var method: DeliveryMethod?
            if let live = await liveTyping.finish(recording) {
                let typedIsTheStart = text.hasPrefix(live.typed)
                rest = typedIsTheStart ? String(text.dropFirst(live.typed.count)) : text
                guard !live.failed, typedIsTheStart else {
                    // Typing stopped (Failed said so then) or typed other words than the memo's: the rest is pasted by hand.
                    _ = try? await dictation.deliver(rest, to: .clipboard, typing: typing)
                    Log.info("Memo \(recording): what was not typed while spoken is on the clipboard")
                    return
                }
                method = live.method
            }
            do throws(DeliveryError) {
                if let delivered = try await dictation.deliver(rest + space, to: output, typing: typing) {
                    method = delivered.method
                    await notifier.tell(delivered.newLines, of: recording)
                }
                guard let method else { return }
                Log.info("Delivered memo \(recording) through \(method.rawValue)")
                try? await bus.emit(
                    path: NotulaBus.recorderPath, interface: NotulaBus.Recorder.self, signal: .delivered,
                    arguments: [.objectPath(memo), .string(method.rawValue)])
            } catch {
                Log.warning("Memo \(recording) not delivered: \(error.message)")
                try? await bus.emit(
                    path: NotulaBus.recorderPath, interface: NotulaBus.Recorder.self, signal: .failed,
                    arguments: [.string(ErrorName.outputUnavailable.rawValue), .string(error.message)])
                await notifier.notDelivered(recording, reason: error.message)
            }
        }
    }

    func stateChanged(_ snapshot: RecorderSnapshot) {}
    func timerStarted(_ snapshot: RecorderSnapshot) {}
    func failed(_ error: RecordingError, locale: String) {}
    func inputMoved(to source: String) {}
}

extension Notifier {
    /// A banner when spoken line breaks were typed as spaces, so that the user knows why and how to press Return.
    func tell(_ newLines: NewLines, of recording: RecordingID) {
        switch newLines {
        case .kept: return
        case .spacesInTerminal(let terminal): newLinesAsSpaces(recording, terminal: terminal)
        case .spacesForUnknownWindow: newLinesAsSpaces(recording, terminal: nil)
        }
    }
}
