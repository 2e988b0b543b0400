import Delivering
import Recording
import Testing

@testable import Dictating

/// The output, typing and live choices: each change reported for the settings, single recordings' outputs taken once.
@Suite("Where the text goes")
struct OutputChoiceTests {
    private let recording = RecordingID("1796248096332715")

    @Test func eachChoiceIsReportedAndUsedAtOnce() {
        let settings = KeptSettings()
        let choice = OutputChoice(settings: settings)
        #expect(choice.output == .memo && choice.typing == .automatic && !choice.live && choice.spaceAfterText)
        choice.choose(.type)
        choice.choose(TypingChoice.forced(.paste))
        choice.choose(live: true)
        #expect(choice.output == .type && choice.typing == .forced(.paste) && choice.live)
        #expect(settings.all == [.output(.type), .typing(.forced(.paste)), .live(true)])
    }

    @Test func aRecordingsOwnOutputIsTakenOnceAndDecidesLiveTyping() {
        let choice = OutputChoice(output: .memo, live: true, settings: KeptSettings())
        #expect(!choice.typesLive(recording))
        choice.send(recording, to: .type)
        #expect(choice.typesLive(recording))
        #expect(choice.takeOutput(of: recording) == .type)
        #expect(choice.takeOutput(of: recording) == .memo)
    }

    @Test func onlyTheNewestSingleChoicesAreKept() {
        let choice = OutputChoice(settings: KeptSettings())
        let recordings = (0...OutputChoice.mostSingleChoices).map { RecordingID(String(1_796_248_096_332_715 + $0)) }
        recordings.forEach { choice.send($0, to: .clipboard) }
        #expect(choice.takeOutput(of: recordings[0]) == .memo, "the oldest went")
        #expect(choice.takeOutput(of: recordings[1]) == .clipboard)
    }
}
