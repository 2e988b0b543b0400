import Dispatch
import Recording
import Synchronization

/// A short sound that tells the user what the recorder did, by its name in the freedesktop sound theme.
public enum Cue: String, Sendable, CaseIterable {
    /// The input is open: speak now.
    case listening = "device-added"
    /// The user paused.
    case paused = "device-removed"
    /// The memo's text is ready.
    case done = "complete"
    case failed = "dialog-error"
}

/// `sounds`: the cues, played on the sink the user hears as event sounds (`media.role` event), one
/// after the other on a queue of their own. Each sound is decoded once; a missing theme or decoder
/// is told once in the journal, and the cues are then silent.
public final class Cues: Sendable {
    private let theme: SoundTheme
    private let log: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "org.notula.cues")
    private let decoded = Mutex<[Cue: Sound]>([:])
    private let toldMissing = Mutex<Set<Cue>>([])

    public init(environment: [String: String], log: @escaping @Sendable (String) -> Void) {
        theme = SoundTheme(environment: environment)
        self.log = log
    }

    /// Plays `cue` without waiting for it.
    public func play(_ cue: Cue) {
        queue.async { self.playNow(cue) }
    }

    /// Plays `cue` and returns once the server has played it (or could not): at most the sound's
    /// length and a few seconds for a server that does not answer.
    public func playToEnd(_ cue: Cue) async {
        await queue.perform { self.playNow(cue) }
    }

    /// The cues of the flow's news: a pause the user made, the text ready, a failure.
    public var reporter: any Reporting { CueReporter(cues: self) }

    private func playNow(_ cue: Cue) {
        guard let sound = sound(of: cue) else { return }
        guard let connection = ShortConnection(server: nil, name: "Notula"), connection.play(sound, named: cue.rawValue) else {
            return log("Cannot play the \(cue.rawValue) sound: the sound server did not take it")
        }
    }

    private func sound(of cue: Cue) -> Sound? {
        if let sound = decoded.withLock({ $0[cue] }) { return sound }
        do throws(SoundError) {
            guard let file = theme.file(of: cue.rawValue) else {
                throw SoundError("No \(cue.rawValue) sound in \(theme.folders.joined(separator: ", ")): install sound-theme-freedesktop")
            }
            let sound = try SoundFile.decode(file)
            decoded.withLock { $0[cue] = sound }
            return sound
        } catch {
            if toldMissing.withLock({ $0.insert(cue).inserted }) { log(error.message) }
            return nil
        }
    }
}

/// Hears the flow for the cues that need no waiting; the one that does (listening) the recorder awaits itself.
private final class CueReporter: Reporting {
    let cues: Cues
    private let wasPaused = Mutex(false)

    init(cues: Cues) { self.cues = cues }

    func stateChanged(_ snapshot: RecorderSnapshot) {
        let paused = snapshot.state == .paused
        let newlyPaused = wasPaused.withLock { was in
            defer { was = paused }
            return paused && !was
        }
        // A call or the machine's sleep pauses too: no sound into a call, nor at a closed lid.
        if newlyPaused, snapshot.pauseReason == .user { cues.play(.paused) }
    }
    func timerStarted(_ snapshot: RecorderSnapshot) {}
    func processed(_ recording: RecordingID) { cues.play(.done) }
    func failed(_ error: RecordingError, locale: String) { cues.play(.failed) }
    func inputMoved(to source: String) {}
}
