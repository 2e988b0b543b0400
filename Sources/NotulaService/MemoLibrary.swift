import DBus
import FoundationEssentials
import Recording

/// Where finished recordings become memos: one object each under `/org/notula/Notula1/Memos/`.
/// For now a memo is its audio file and duration; the library issue grows it from here.
actor MemoLibrary: Processing {
    private let bus: Bus

    init(bus: Bus) { self.bus = bus }

    static func path(of recording: RecordingID) -> ObjectPath {
        NotulaBus.memosPath.appending(recording.rawValue) ?? NotulaBus.memosPath
    }

    func process(_ audio: CapturedAudio, recording: RecordingID) async throws(RecordingError) {
        await bus.export(Self.path(of: recording), interfaces: [Self.memoInterface(audio)])
        Log.info("Memo \(recording): \(audio.file), \(audio.duration) s")
    }

    func discard(_ audio: CapturedAudio) async {
        do { try FileManager.default.removeItem(atPath: audio.file) } catch {
            Log.warning("Cannot delete \(audio.file): \(error)")
        }
    }

    private static func memoInterface(_ audio: CapturedAudio) -> Interface {
        Interface(
            NotulaBus.memoInterface,
            properties: [
                Property("AudioFile", "s", emitsChanged: .const) { .string(audio.file) },
                Property("Duration", "d", emitsChanged: .const) { .double(audio.duration) },
            ])
    }
}
