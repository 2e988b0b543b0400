import Delivering
import Recording
import Synchronization

/// Where memos' texts go, how and when they are typed: the recorder's `Output`, `Typing` and `Live` (each change told
/// to the settings listener, which keeps it), and the outputs `ProcessTo` and `Dictate` chose for single recordings.
public final class OutputChoice: Sendable {
    private struct Choices {
        var output: TextOutput
        var typing: TypingChoice
        var live: Bool
        var perRecording: [RecordingID: TextOutput] = [:]
    }

    private let choices: Mutex<Choices>
    private let settings: any DictationSettingsListener
    /// Whether delivered text is followed by a space.
    public let spaceAfterText: Bool

    public init(
        output: TextOutput = .memo, typing: TypingChoice = .automatic, live: Bool = false, spaceAfterText: Bool = true,
        settings: any DictationSettingsListener
    ) {
        choices = Mutex(Choices(output: output, typing: typing, live: live))
        self.settings = settings
        self.spaceAfterText = spaceAfterText
    }

    public var output: TextOutput { choices.withLock { $0.output } }
    public var typing: TypingChoice { choices.withLock { $0.typing } }
    public var live: Bool { choices.withLock { $0.live } }

    public func choose(_ output: TextOutput) {
        choices.withLock { $0.output = output }
        settings.settingChanged(.output(output))
    }

    public func choose(_ typing: TypingChoice) {
        choices.withLock { $0.typing = typing }
        settings.settingChanged(.typing(typing))
    }

    public func choose(live: Bool) {
        choices.withLock { $0.live = live }
        settings.settingChanged(.live(live))
    }

    /// Whether `recording`'s utterances are typed as they end: `Live`, and its text is to be typed.
    func typesLive(_ recording: RecordingID) -> Bool {
        choices.withLock { $0.live && ($0.perRecording[recording] ?? $0.output) == .type }
    }

    /// `recording`'s text goes to `output`, whatever `Output` says.
    public func send(_ recording: RecordingID, to output: TextOutput) {
        choices.withLock { choices in
            choices.perRecording[recording] = output
            choices.perRecording.keepNewest(Self.mostSingleChoices)
        }
    }

    public static let mostSingleChoices = 16

    /// Where `recording`'s text goes, forgetting a single recording's choice once asked.
    func takeOutput(of recording: RecordingID) -> TextOutput {
        choices.withLock { $0.perRecording.removeValue(forKey: recording) ?? $0.output }
    }
}
