import Delivering
import Recording
import Speech
import Testing
import Writing

@testable import Dictating

/// A processed memo's text goes where `Output` or the recording's own choice sends it, and the listener hears how.
@Suite("Delivering a memo's text")
struct DeliveryReporterTests {
    private let recording = RecordingID("1796248096332715")
    private let memoText = "Hello world, how are you."

    private struct Setup {
        let reporter: DeliveryReporter
        let choice: OutputChoice
        let typing: LiveTyping
        let delivery: RecordedDelivery
        let events: HeardEvents
    }

    private func setup(
        output: TextOutput = .type, live: Bool = false, spaceAfterText: Bool = true, text: String? = nil,
        delivery: RecordedDelivery = RecordedDelivery()
    ) -> Setup {
        let events = HeardEvents()
        let choice = OutputChoice(output: output, live: live, spaceAfterText: spaceAfterText, settings: KeptSettings())
        let typing = LiveTyping(
            choice: choice, delivery: delivery, writing: .withoutFiles,
            listener: events)
        typing.start(localeOf: { _ in "en-US" })
        let memoText = text ?? self.memoText
        let reporter = DeliveryReporter(text: { _ in memoText }, choice: choice, delivery: delivery, liveTyping: typing, listener: events)
        return Setup(reporter: reporter, choice: choice, typing: typing, delivery: delivery, events: events)
    }

    @Test func theTextIsTypedWithASpaceAndTheMethodIsTold() async {
        let setup = setup()
        await setup.reporter.deliver(recording)?.value
        #expect(setup.delivery.asked == [.init(text: memoText + " ", output: .type)])
        #expect(setup.events.all == [.delivered(recording, .portal)])
    }

    @Test func noSpaceWhenTheSettingSaysSo() async {
        let setup = setup(spaceAfterText: false)
        await setup.reporter.deliver(recording)?.value
        #expect(setup.delivery.asked.map(\.text) == [memoText])
    }

    @Test func aMemoOutputOrAnEmptyTextDeliversNothing() async {
        for setup in [setup(output: .memo), setup(text: "")] {
            #expect(setup.reporter.deliver(recording) == nil)
            #expect(setup.delivery.asked.isEmpty && setup.events.all.isEmpty)
        }
    }

    @Test func aRecordingsOwnOutputWinsOnce() async {
        let setup = setup(output: .memo)
        setup.choice.send(recording, to: .clipboard)
        await setup.reporter.deliver(recording)?.value
        #expect(setup.delivery.asked == [.init(text: memoText + " ", output: .clipboard)])
        #expect(setup.reporter.deliver(recording) == nil, "the next time, Output again")
    }

    @Test func aFailedDeliveryIsToldWithWhatToDoNext() async {
        let setup = setup(delivery: RecordedDelivery(answer: .failure(DeliveryError("Install wtype, or choose the clipboard"))))
        await setup.reporter.deliver(recording)?.value
        #expect(setup.events.all == [.notDelivered(recording, reason: "Install wtype, or choose the clipboard")])
    }

    @Test func lineBreaksTypedAsSpacesAreToldBeforeTheDelivery() async {
        let delivery = RecordedDelivery(answer: .success(Dictation.Delivery(method: .xtest, newLines: .spacesForUnknownWindow)))
        let setup = setup(delivery: delivery)
        await setup.reporter.deliver(recording)?.value
        #expect(setup.events.all == [.newLinesAsSpaces(recording, .spacesForUnknownWindow), .delivered(recording, .xtest)])
    }

    @Test func withLiveOnlyWhatWasNotTypedWhileSpokenGoesAtSend() async {
        let setup = setup(live: true)
        setup.typing.heard(.final(Transcript(text: "hello world comma")), of: recording)
        await setup.reporter.deliver(recording)?.value
        #expect(setup.delivery.asked.map(\.text) == ["Hello world,", " how are you. "])
        #expect(setup.events.all == [.delivered(recording, .portal)])
    }

    @Test func withLiveAllTypedTheMethodIsStillTold() async {
        let setup = setup(live: true, spaceAfterText: false, text: "Hello.")
        setup.typing.heard(.final(Transcript(text: "hello period")), of: recording)
        await setup.reporter.deliver(recording)?.value
        #expect(setup.delivery.asked.map(\.text) == ["Hello."])
        #expect(setup.events.all == [.delivered(recording, .portal)])
    }

    @Test func whenLiveTypingStoppedTheRestGoesToTheClipboard() async {
        let setup = setup(live: true, delivery: RecordedDelivery(answer: .failure(DeliveryError("The portal refused"))))
        setup.typing.heard(.final(Transcript(text: "hello world comma")), of: recording)
        await setup.reporter.deliver(recording)?.value
        // Nothing was typed: the whole memo is left on the clipboard to paste, and only the typing's failure was told.
        #expect(setup.delivery.asked == [.init(text: "Hello world,", output: .type), .init(text: memoText, output: .clipboard)])
        #expect(setup.events.all == [.notDelivered(recording, reason: "The portal refused")])
    }
}
