import DBus
import Delivering
import Dictating
import Memos
import Notifying
import NotulaContract
import Recording

/// The deliveries' events on the bus and in banners: `Delivered`, `Failed` with `OutputUnavailable` and a banner
/// saying what to do next, a banner when spoken line breaks were typed as spaces.
struct DictationSignals: DictationListener {
    let bus: Bus
    let notifier: Notifier

    func dictationChanged(_ event: DictationEvent) async {
        switch event {
        case .delivered(let recording, let method):
            try? await bus.emit(
                path: NotulaBus.recorderPath, interface: NotulaBus.Recorder.self, signal: .delivered,
                arguments: [.objectPath(MemoLibrary.path(of: recording.rawValue)), .string(method.rawValue)])
        case .notDelivered(let recording, let reason):
            await bus.emitFailed(BusError(.outputUnavailable, reason))
            await notifier.notDelivered(recording, reason: reason)
        case .newLinesAsSpaces(let recording, let newLines):
            await notifier.tell(newLines, of: recording)
        }
    }
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

extension Bus {
    /// `Failed`: the one way the recorder object says a recording or a delivery failed.
    func emitFailed(_ error: BusError) {
        try? emit(
            path: NotulaBus.recorderPath, interface: NotulaBus.Recorder.self, signal: .failed,
            arguments: [.string(error.name.rawValue), .string(error.message)])
    }
}
