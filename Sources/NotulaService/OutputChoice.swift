import Delivering
import Recording
import Synchronization

/// Where memos' texts go, how and when they are typed: the recorder's `Output`, `Typing` and `Live`, kept in
/// settings.json, and the outputs `ProcessTo` and `Dictate` chose for single recordings.
final class OutputChoice: Sendable {
    private struct Choices {
        var output: TextOutput
        var typing: TypingChoice
        var live: Bool
        var perRecording: [RecordingID: TextOutput] = [:]
    }

    private let choices: Mutex<Choices>
    private let settingsFile: String
    /// Whether delivered text is followed by a space.
    let spaceAfterText: Bool

    init(_ settings: Settings, settingsFile: String) {
        let output = settings.output.flatMap { TextOutput(rawValue: $0) }
        let typing = settings.typing.flatMap { TypingChoice($0) }
        if output == nil, let value = settings.output {
            Log.warning("\(settingsFile): output \"\(value)\" is none of \(TextOutput.spelled); using memo")
        }
        if typing == nil, let value = settings.typing {
            Log.warning("\(settingsFile): typing \"\(value)\" is none of \(TypingChoice.spelled); using auto")
        }
        choices = Mutex(Choices(output: output ?? .memo, typing: typing ?? .automatic, live: settings.live ?? false))
        self.settingsFile = settingsFile
        spaceAfterText = settings.spaceAfterText ?? true
    }

    var output: TextOutput { choices.withLock { $0.output } }
    var typing: TypingChoice { choices.withLock { $0.typing } }
    var live: Bool { choices.withLock { $0.live } }

    func choose(_ output: TextOutput) {
        choices.withLock { $0.output = output }
        Settings.update(at: settingsFile) { $0.output = output.rawValue }
    }

    func choose(_ typing: TypingChoice) {
        choices.withLock { $0.typing = typing }
        Settings.update(at: settingsFile) { $0.typing = typing.value }
    }

    func choose(live: Bool) {
        choices.withLock { $0.live = live }
        Settings.update(at: settingsFile) { $0.live = live }
    }

    /// Whether `recording`'s utterances are typed as they end: `Live`, and its text is to be typed.
    func typesLive(_ recording: RecordingID) -> Bool {
        choices.withLock { $0.live && ($0.perRecording[recording] ?? $0.output) == .type }
    }

    /// `recording`'s text goes to `output`, whatever `Output` says.
    func send(_ recording: RecordingID, to output: TextOutput) {
        choices.withLock { choices in
            choices.perRecording[recording] = output
            choices.perRecording.keepNewest(Self.mostSingleChoices)
        }
    }

    static let mostSingleChoices = 16

    /// Where `recording`'s text goes, forgetting a single recording's choice once asked.
    func takeOutput(of recording: RecordingID) -> TextOutput {
        choices.withLock { $0.perRecording.removeValue(forKey: recording) ?? $0.output }
    }
}
