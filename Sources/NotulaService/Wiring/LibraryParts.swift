import Audio
import DBus
import Memos
import Notifying
import Recording
import Speech

/// The memo library, opened on the bus, and the media player, which plays its memos as well as it shows the
/// recording.
struct LibraryParts {
    let memos: MemoLibrary
    let mediaPlayer: MediaPlayer?

    static func open(
        speech: SpeechParts, transcription: Transcription, dictation: DictationParts, gate: AccessGate, controls: RecorderLink,
        paths: Paths, environment: [String: String], on bus: ServiceBus
    ) async throws(ServiceExit) -> LibraryParts {
        do {
            let memos = try MemoLibrary(
                executor: bus.bus.unownedExecutor, store: paths.library, recordingsFolder: paths.recordings,
                transcriptsFolder: paths.transcripts,
                transcriber: WrittenTranscription(
                    transcriber: transcription.transcriber,
                    again: Retranscriber(
                        engines: [
                            VoskEngine(libraryCandidates: speech.libraryCandidates, modelPlaces: speech.places.all, memory: speech.memory),
                            speech.whisper, speech.sherpa,
                        ], modelPlaces: speech.places.all),
                    writing: dictation.writing), models: transcription.models, playback: PulsePlayback(),
                repair: RecordingRepair.repair)
            // Made before the library opens, which tells it of every memo played from then on.
            let mediaPlayer = bus.playerBus.map {
                MediaPlayer(
                    bus: $0, texts: .forEnvironment(environment), controls: controls, memoPlayback: MemoPlaybackWiring.controls(memos.player),
                    trackPath: { MemoLibrary.path(of: $0.rawValue) }, log: { Log.info($0) })
            }
            try await LibraryExport.open(
                memos, on: bus.bus, writing: dictation.writing, models: transcription.models, gate: gate,
                alsoTelling: mediaPlayer.map { [MediaPlayerFeed(player: $0, library: memos)] } ?? [])
            return LibraryParts(memos: memos, mediaPlayer: mediaPlayer)
        } catch {
            Log.error("Cannot open the memo library \(paths.library): \(error)")
            throw ServiceExit(status: 1)
        }
    }
}
