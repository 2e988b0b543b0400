import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

extension ServiceUnderTest {
    /// Sends the recording and returns its memo once processing ended, in Processed or Failed (that signal's arguments).
    func sendAndWait(_ signals: AsyncStream<Message>) async throws -> (memo: ObjectPath, failure: [Value]?) {
        let memo = try await recorder(.process).argument(0, as: ObjectPath.self)
        for await message in signals where message.isSignal(.processed) || message.isSignal(.failed) {
            return (memo, message.isSignal(.failed) ? message.body : nil)
        }
        return (memo, nil)
    }
}

@Suite("A recording keeps the locale it started in", .serialized, .tags(.modelLoading))
struct RecordingLocaleTests {
    @Test func aPickDuringARecordingLeavesItsTranscriptAndBannersInItsOwnLocale() async throws {
        let place = try modelPlace()
        let junk = FileManager.default.temporaryDirectory.appendingPathComponent("notula-not-a-model-\(UUID().uuidString).zip")
        try Data("not a model".utf8).write(to: junk)
        defer {
            try? FileManager.default.removeItem(at: place)
            try? FileManager.default.removeItem(at: junk)
        }
        let shop = try ModelShop([ModelShop.Offer(lang: "nl", name: "vosk-model-small-nl-0.22", archive: junk)])
        let bus = try PrivateBus()
        let notifications = try await NotificationDaemonMock(on: bus)
        let service = try await ServiceUnderTest.start(
            environment: ["VOSK_MODEL_PATH": place.path, "NOTULA_MODEL_CATALOG": shop.catalogAddress], settings: [#""locale": "ko-KR""#],
            on: bus)
        var modelChanges = try await service.signals(of: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface).makeAsyncIterator()
        func supported() async throws -> [String] {
            try [String](dbusValue: try await service.modelsProperty(.supportedLocales))
        }
        // The catalog, which brings nl-NL, is fetched after the start.
        while try await !supported().contains("nl-NL") {
            guard await modelChanges.next() != nil else { break }
        }
        let sink = try #require(service.sink)

        // Korean, sent after the user picked Dutch: transcribed in Korean.
        var signals = try await service.recorderSignals()
        try await service.recorder(.start)
        try await sink.play(try speech("annyeong haseyo, notula imnida"))
        try await setLocale(service, "nl-NL")
        let korean = try await service.sendAndWait(signals)
        #expect(korean.failure == nil, "\(String(describing: korean.failure))")
        #expect(try await service.property(.locale, of: korean.memo) == .string("ko-KR"))
        #expect(try await service.property(.status, of: korean.memo) == .string("done"))
        let text = try await service.memo(.getTranscript, of: korean.memo).argument(0, as: String.self)
        #expect(!text.isEmpty)

        // Dutch, whose model is not here, sent after the user picked Korean back: its failure names Dutch.
        signals = try await service.recorderSignals()
        try await service.recorder(.start)
        try await setLocale(service, "ko-KR")
        let dutch = try await service.sendAndWait(signals)
        #expect(dutch.failure?.first == .string("org.notula.Notula1.Error.ModelUnavailable"), "\(String(describing: dutch.failure))")
        #expect(try await service.property(.locale, of: dutch.memo) == .string("nl-NL"))
        var banner = await notifications.nextNotification()
        while let summary = banner?.summary, !summary.hasPrefix("No speech model") { banner = await notifications.nextNotification() }
        #expect(banner?.summary == "No speech model for nl-NL", "\(String(describing: banner))")
        #expect(banner?.body.contains("notula models install nl-NL") == true, "\(String(describing: banner))")
    }
}
