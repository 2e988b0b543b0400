import DBus
import Delivering
import Dictating
import Memos
import Notifying

/// Where the words go: the user's output choice, the deliveries into the session, the written text, and those who
/// hear the live text — a reader on a pipe, or the typing of each utterance as it ends.
struct DictationParts {
    let output: OutputChoice
    let dictation: Dictation
    let writing: TextWriting
    let listenerChanges: ListenerChanges
    let liveText: TextWatchers
    let liveTyping: LiveTyping
    /// What the deliveries report becomes `Delivered`, or `Failed` and a banner.
    let signals: DictationSignals

    static func make(
        settings: Settings, paths: Paths, writing: TextWriting, environment: [String: String], bus: Bus, notifier: Notifier
    ) -> DictationParts {
        let output = OutputChoice(settings, settingsFile: paths.settingsFile)
        let session = SessionEnvironment(bus: bus, own: environment)
        let searchPath = DeliveryWiring.searchPath(environment)
        let dictation = Dictation(
            readSession: { await session.read() },
            findWays: { await DeliveryWiring.ways(in: $0, bus: bus, paths: paths, searchPath: searchPath) })
        Task { await DeliveryWiring.restoreLeftClipboard(before: dictation, session: session, searchPath: searchPath) }
        let listenerChanges = ListenerChanges()
        let signals = DictationSignals(bus: bus, notifier: notifier)
        return DictationParts(
            output: output, dictation: dictation, writing: writing, listenerChanges: listenerChanges,
            liveText: TextWatchers(memoPath: { MemoLibrary.path(of: $0.rawValue).rawValue }, changes: listenerChanges),
            liveTyping: LiveTyping(choice: output, delivery: dictation, writing: writing, listener: signals), signals: signals)
    }
}
