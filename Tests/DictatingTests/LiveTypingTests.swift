import Delivering
import Foundation
import Recording
import Speech
import Testing
import Writing

@testable import Dictating

/// `Live`: each utterance typed as it ends, in the spoken order and written as the memo will be; a failure stops the
/// typing of that recording and is told once.
@Suite("Typing while spoken")
struct LiveTypingTests {
    private let recording = RecordingID("1796248096332715")

    private func typing(output: TextOutput = .type, live: Bool = true, delivery: RecordedDelivery, events: HeardEvents) -> LiveTyping {
        let choice = OutputChoice(output: output, live: live, settings: KeptSettings())
        let typing = LiveTyping(
            choice: choice, delivery: delivery, writing: .withoutFiles,
            listener: events)
        typing.start(localeOf: { _ in "en-US" })
        return typing
    }

    @Test func eachUtteranceIsTypedInOrderAsTheMemoWritesIt() async {
        let delivery = RecordedDelivery()
        let events = HeardEvents()
        let typing = typing(delivery: delivery, events: events)
        typing.heard(.partial("hello"), of: recording)
        typing.heard(.final(Transcript(text: "hello world comma")), of: recording)
        typing.heard(.final(Transcript(text: "how are you period")), of: recording)
        let typed = await typing.finish(recording)
        #expect(delivery.asked.map(\.text) == ["Hello world,", " how are you."])
        #expect(delivery.asked.allSatisfy { $0.output == .type })
        #expect(typed?.typed == "Hello world, how are you.")
        #expect(typed?.method == .portal)
        #expect(events.all.isEmpty)
    }

    @Test func nothingIsTypedUnlessLiveAndTyped() async {
        for (output, live) in [(TextOutput.type, false), (.clipboard, true), (.memo, true)] {
            let delivery = RecordedDelivery()
            let typing = typing(output: output, live: live, delivery: delivery, events: HeardEvents())
            typing.heard(.final(Transcript(text: "hello")), of: recording)
            #expect(await typing.finish(recording) == nil)
            #expect(delivery.asked.isEmpty)
        }
    }

    @Test func aFailureStopsTheTypingOfThatRecordingAndIsToldOnce() async {
        let delivery = RecordedDelivery(answer: .failure(DeliveryError("No keyboard: install wtype")))
        let events = HeardEvents()
        let typing = typing(delivery: delivery, events: events)
        typing.heard(.final(Transcript(text: "one")), of: recording)
        typing.heard(.final(Transcript(text: "two")), of: recording)
        let typed = await typing.finish(recording)
        #expect(delivery.asked.map(\.text) == ["One"], "the second is not tried")
        #expect(typed?.failed == true)
        #expect(events.all == [.notDelivered(recording, reason: "No keyboard: install wtype")])
    }

    @Test func withTheAccuratePassOnlyTheRevisedTextIsTyped() async {
        let delivery = RecordedDelivery()
        let typing = typing(delivery: delivery, events: HeardEvents())
        typing.heard(.accuratePass(model: "ggml-base"), of: recording)
        typing.heard(.final(Transcript(text: "hollow world")), of: recording)
        typing.heard(.revised(utterance: 0, Transcript(text: "hello world")), of: recording)
        _ = await typing.finish(recording)
        #expect(delivery.asked.map(\.text) == ["Hello world"])
    }

    @Test func spokenLineBreaksTypedAsSpacesAreToldOnceARecording() async {
        let delivery = RecordedDelivery(answer: .success(Dictation.Delivery(method: .xtest, newLines: .spacesInTerminal("kitty"))))
        let events = HeardEvents()
        let typing = typing(delivery: delivery, events: events)
        typing.heard(.final(Transcript(text: "ls new line")), of: recording)
        typing.heard(.final(Transcript(text: "pwd new line")), of: recording)
        _ = await typing.finish(recording)
        #expect(events.all == [.newLinesAsSpaces(recording, .spacesInTerminal("kitty"))])
    }

    @Test func besideTheWatchersBothHearEveryUtterance() async throws {
        let delivery = RecordedDelivery()
        let typing = typing(delivery: delivery, events: HeardEvents())
        let watchers = TextWatchers(memoPath: { "/org/notula/Notula1/Memos/\($0.rawValue)" })
        let both = LiveTextListeners(listeners: [watchers, typing])
        #expect(!both.isFollowed, "typing needs no guesses, and nobody watches yet")
        let reader = try watchers.newReader(for: .unsandboxed(":1.7"))
        defer { close(reader) }
        #expect(both.isFollowed)
        both.heard(.final(Transcript(text: "hello")), of: recording)
        both.ended(recording)
        _ = await typing.finish(recording)
        #expect(delivery.asked.map(\.text) == ["Hello"])
        // The watcher reads the words as heard; the window gets them as written.
        #expect(
            PipeEnd.available(on: reader) == """
                {"end":0,"kind":"final","start":0,"text":"hello","words":[]}
                {"kind":"end","memo":"/org/notula/Notula1/Memos/1796248096332715"}

                """)
    }
}
