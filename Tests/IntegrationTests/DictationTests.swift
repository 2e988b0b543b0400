import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// Records `words` spoken, sends the recording with `ProcessTo(output)`, and returns the memo with the recorder's
/// signals from the send on.
func dictate(_ words: String, to output: String, into service: ServiceUnderTest) async throws -> (ObjectPath, AsyncStream<Message>) {
    let signals = try await service.recorderSignals()
    try await service.recorder(.start)
    try await service.sink?.play(try speech(words))
    let memo = try await service.recorder(.processTo, [.string(output)]).argument(0, as: ObjectPath.self)
    return (memo, signals)
}

/// The signals that tell what became of a sent memo's text: `Delivered` or `Failed`, after `Processed`.
func deliveryOutcome(in signals: AsyncStream<Message>) async throws -> Message {
    for await message in signals where message.isSignal(.delivered) || message.isSignal(.failed) { return message }
    throw SignalsEnded()
}

struct SignalsEnded: Error {}

@Suite("Dictation: the memo's text where the user types", .serialized, .tags(.speech))
struct DictationTests {
    @Test func aSessionWithNoWayToTypeSaysSoAndKeepsTheMemo() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let bus = try PrivateBus()
        let server = try await NotificationDaemonMock(on: bus)
        let service = try await ServiceUnderTest.start(
            environment: ["VOSK_MODEL_PATH": place.path, "DISPLAY": "", "WAYLAND_DISPLAY": "", "XDG_SESSION_TYPE": ""],
            settings: [#""locale": "ko-KR""#], on: bus)

        let (memo, signals) = try await dictate("annyeong haseyo, notula imnida", to: "type", into: service)
        let outcome = try await deliveryOutcome(in: signals)

        #expect(outcome.isSignal(.failed))
        #expect(try outcome.argument(0, as: String.self) == NotulaErrorName.outputUnavailable.rawValue.rawValue)
        let message = try outcome.argument(1, as: String.self)
        #expect(message.hasPrefix("No graphical session to type into"), "\(message)")
        #expect(message.hasSuffix("The text is in the memo."), "\(message)")
        #expect(try await service.property(.status, of: memo) == .string("done"))
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(!text.isEmpty)
        #expect(!message.contains(text), "the text never goes into a signal")
        var banner: PostedNotification?
        while banner == nil, let posted = await server.nextNotification() {
            if posted.summary == "The text could not be typed" { banner = posted }
        }
        #expect(banner?.body == message)
    }
}
