import DBus
import Foundation
import NotulaTestSupport
import Testing

extension ServiceUnderTest {
    /// Picks the locale recordings are transcribed in, as `notula locale` does.
    func pickLocale(_ tag: String) async throws {
        try await call(
            Self.recorderPath, "org.freedesktop.DBus.Properties", "Set",
            [.string("org.notula.Notula1.Recorder"), .string("Locale"), .variant(.string(tag))])
    }

    /// Sends the recording and returns its memo once processing ended, in Processed or Failed (that signal's arguments).
    func sendAndWait(_ signals: AsyncStream<Message>) async throws -> (memo: ObjectPath, failure: [Value]?) {
        let memo = try await recorder("Process").argument(0, as: ObjectPath.self)
        for await message in signals where message.member == "Processed" || message.member == "Failed" {
            return (memo, message.member == "Failed" ? message.body : nil)
        }
        return (memo, nil)
    }
}

@Suite("A recording keeps the locale it started in", .serialized)
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
        let models = ObjectPath("/org/notula/Notula1/Models")!
        var modelChanges = try await service.signals(of: models, interface: "org.notula.Notula1.Models").makeAsyncIterator()
        func supported() async throws -> [String] {
            try [String](dbusValue: try await service.property("SupportedLocales", of: models, interface: "org.notula.Notula1.Models"))
        }
        // The catalog, which brings nl-NL, is fetched after the start.
        while try await !supported().contains("nl-NL") {
            guard await modelChanges.next() != nil else { break }
        }
        let sink = try #require(service.sink)

        // Korean, sent after the user picked Dutch: transcribed in Korean.
        var signals = try await service.recorderSignals()
        try await service.recorder("Start")
        try sink.play(try speech("annyeong haseyo, notula imnida"))
        try await service.pickLocale("nl-NL")
        let korean = try await service.sendAndWait(signals)
        #expect(korean.failure == nil, "\(String(describing: korean.failure))")
        #expect(try await service.property("Locale", of: korean.memo, interface: memoInterface) == .string("ko-KR"))
        #expect(try await service.property("Status", of: korean.memo, interface: memoInterface) == .string("done"))
        let text = try await service.call(korean.memo, memoInterface, "GetTranscript").argument(0, as: String.self)
        #expect(!text.isEmpty)

        // Dutch, whose model is not here, sent after the user picked Korean back: its failure names Dutch.
        signals = try await service.recorderSignals()
        try await service.recorder("Start")
        try await service.pickLocale("ko-KR")
        let dutch = try await service.sendAndWait(signals)
        #expect(dutch.failure?.first == .string("org.notula.Notula1.Error.ModelUnavailable"), "\(String(describing: dutch.failure))")
        #expect(try await service.property("Locale", of: dutch.memo, interface: memoInterface) == .string("nl-NL"))
        var banner = await notifications.nextNotification()
        while let summary = banner?.summary, !summary.hasPrefix("No speech model") { banner = await notifications.nextNotification() }
        #expect(banner?.summary == "No speech model for nl-NL", "\(String(describing: banner))")
        #expect(banner?.body.contains("notula models install nl-NL") == true, "\(String(describing: banner))")
    }
}
