import DBus
import FoundationEssentials
import Notifying
import Recording
import Speech
import Testing

@testable import NotulaService

/// The library hears the capture's news on the capture's thread and handles it on its own executor: in the
/// order it came, or a discard's drop overtakes the start that writes the row, and a memo of a discarded
/// recording stays. Needs a session bus (`scripts/private-session`): the library's objects live on one.
@Suite("The library takes the capture's news in order")
struct CaptureNewsOrderTests {
    @Test("20 recordings started and dropped at once leave no row; the one started last has its row")
    func startsAndDropsInOrder() async throws {
        let folder = FileManager.default.temporaryDirectory.path + "/notula-news-\(UInt64.random(in: 0 ... .max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let library = try await Self.library(in: folder)

        let dropped = 20
        for index in 1...dropped {
            library.captureStarted(RecordingID("\(index)"), locale: "ko-KR")
            library.captureDropped(RecordingID("\(index)"))
        }
        let last = RecordingID("\(dropped + 1)")
        library.captureStarted(last, locale: "ko-KR")

        // Once the last start is handled, every news before it is, when they are taken in order. Looked at
        // every 20 ms: a loop of hops would crowd out the library's own executor, which the news waits for.
        let deadline = ContinuousClock.now + .seconds(120)
        while await library.summary(last.rawValue) == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(await library.summary(last.rawValue) != nil)
        #expect(await library.count == 1, "rows of dropped recordings are left")
        #expect(await library.current == last.rawValue)
    }

    /// A library on the session bus, in `folder`, with no speech engine and no models.
    private static func library(in folder: String) async throws -> MemoLibrary {
        let bus = try await Bus.connect(.session)
        let transcriber = Transcriber(
            engine: SpeechEngine(libraryCandidates: [], modelPlaces: []), idleRelease: .seconds(600), currentLocale: { "en-US" })
        let notifier = Notifier(isolation: bus, server: BusNotificationServer(bus: bus), texts: .forEnvironment([:]), log: { _ in })
        let models = ModelStore(
            bus: bus, places: ModelPlaces(all: [], notula: folder, downloads: folder),
            known: .init(catalog: ModelCatalog(entries: []), installed: []),
            catalogSource: CatalogSource(address: folder + "/catalog.json", cacheFolder: folder), transcriber: transcriber,
            notifier: notifier, loads: { _ throws(SpeechError) in })
        let library = try MemoLibrary(
            bus: bus, store: folder + "/library.sqlite3", recordingsFolder: folder, transcriptsFolder: folder, transcriber: transcriber,
            models: models)
        try await library.open()
        return library
    }
}
