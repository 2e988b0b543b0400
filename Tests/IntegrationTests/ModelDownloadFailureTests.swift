import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

/// A folder of archives for one test, removed after it.
final class Workbench {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-bench-\(UUID().uuidString)")
    init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: folder) }

    /// `megabytes` of random bytes: an archive that is never unpacked.
    func randomFile(megabytes: Int) throws -> URL {
        let file = folder.appendingPathComponent("random.zip")
        try output(of: "dd", "if=/dev/urandom", "of=\(file.path)", "bs=1M", "count=\(megabytes)", "status=none")
        return file
    }
}

@Suite("Failed and cancelled downloads leave nothing behind", .serialized)
struct ModelDownloadFailureTests {
    @Test func cancellingAThrottledDownloadLeavesNoFiles() async throws {
        let bench = try Workbench()
        let archive = try bench.randomFile(megabytes: 20)
        let shop = try ModelShop([ModelShop.Offer(archive: archive, route: { .file($0, rate: 1_000_000) })])
        let service = try await ServiceUnderTest.start(environment: ["NOTULA_MODEL_CATALOG": shop.catalogAddress])
        try await service.models(.refresh)
        let signals = try await service.signals(of: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface)

        try await service.models(.install, [.string("ko-KR")])
        var events: [String] = []
        var cancelled = false
        for await message in signals {
            if message.member == "PropertiesChanged", !cancelled,
                let progress = try? message.argument(1, as: [String: Variant].self)["DownloadProgress"]?.get(Double.self), progress > 0
            {
                cancelled = true
                #expect(try await service.modelsProperty(.downloadingLocale) == .string("ko-KR"))
                try await service.models(.cancel)
            } else if let member = message.member, member != "PropertiesChanged" {
                events.append(member)
                if member != NotulaBus.Models.Signal.downloadStarted.rawValue.rawValue { break }
            }
        }

        #expect(events == ["DownloadStarted", "DownloadCancelled"])
        #expect(try await service.modelsProperty(.downloadingLocale) == .string(""))
        #expect(try await service.modelsProperty(.installedLocales) == .array(element: "s", []))
        #expect(service.modelsFolderEntries.isEmpty)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: service.downloadsFolder.path)) ?? []).isEmpty)
    }

    /// How a download goes wrong, and a word the person is told.
    enum Fault: String, CaseIterable, CustomTestStringConvertible {
        case entryEscapingWithDotDot, linkOutOfTheFolder, md5Mismatch, truncatedBody, notFound

        var testDescription: String { rawValue }

        func offer(on bench: Workbench) throws -> ModelShop.Offer {
            switch self {
            case .entryEscapingWithDotDot:
                ModelShop.Offer(archive: try ModelArchives.zip(escapingWith: "../../evil.txt", in: bench.folder))
            case .linkOutOfTheFolder:
                ModelShop.Offer(archive: try ModelArchives.tarWithLinkOut(in: bench.folder))
            case .md5Mismatch:
                ModelShop.Offer(archive: try bench.randomFile(megabytes: 1), md5: String(repeating: "0", count: 32))
            case .truncatedBody:
                ModelShop.Offer(archive: try bench.randomFile(megabytes: 2), route: { .file($0, truncateAfter: 500_000) })
            case .notFound:
                ModelShop.Offer(archive: try bench.randomFile(megabytes: 1), route: { _ in .status(404) })
            }
        }

        /// What the message must say for the person to know what happened.
        var said: String {
            switch self {
            case .entryEscapingWithDotDot, .linkOutOfTheFolder: "could not be unpacked"
            case .md5Mismatch: "did not download correctly"
            case .truncatedBody: "could not be downloaded"
            case .notFound: "404"
            }
        }
    }

    @Test(arguments: Fault.allCases)
    func aBadDownloadFailsAndLeavesTheModelsFolderAsItWas(_ fault: Fault) async throws {
        let bench = try Workbench()
        let shop = try ModelShop([try fault.offer(on: bench)])
        let service = try await ServiceUnderTest.start(environment: ["NOTULA_MODEL_CATALOG": shop.catalogAddress])
        try await service.models(.refresh)
        let signals = try await service.signals(of: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface)

        try await service.models(.install, [.string("ko-KR")])
        var failure: String?
        var events: [String] = []
        for await message in signals where message.member != "PropertiesChanged" {
            events.append(message.member ?? "")
            if message.isSignal(.downloadFailed) { failure = try message.argument(1, as: String.self) }
            if !message.isSignal(.downloadStarted) { break }
        }

        #expect(events == ["DownloadStarted", "DownloadFailed"])
        #expect(failure?.contains(fault.said) == true, "\(failure ?? "no message")")
        #expect(try await service.modelsProperty(.installedLocales) == .array(element: "s", []))
        #expect(try await service.modelsProperty(.downloadingLocale) == .string(""))
        #expect(service.modelsFolderEntries.isEmpty)
        // Only a body cut short leaves bytes to resume; a 404 leaves no empty partial file.
        let downloadsLeft = (try? FileManager.default.contentsOfDirectory(atPath: service.downloadsFolder.path)) ?? []
        #expect(downloadsLeft.isEmpty == (fault != .truncatedBody), "\(downloadsLeft)")
        // The escaping entry aims two folders up from where the model unpacks: inside the service's home.
        let written = FileManager.default.enumerator(atPath: service.home.path)?.compactMap { $0 as? String } ?? []
        #expect(!written.contains { $0.hasSuffix("evil.txt") }, "nothing written outside the models folder")
    }

    /// Discarding a recording that waits for its model ends the wait: the next recording starts at once.
    @Test func discardingARecordingWaitingForItsModelLetsTheNextOneStart() async throws {
        let bench = try Workbench()
        let shop = try ModelShop([ModelShop.Offer(archive: try bench.randomFile(megabytes: 20), route: { .file($0, rate: 500_000) })])
        let service = try await ServiceUnderTest.start(environment: ["NOTULA_MODEL_CATALOG": shop.catalogAddress])
        try await service.models(.refresh)
        try await setLocale(service, "ko-KR")

        try await service.recorder(.start)
        try await service.recorder(.process)
        #expect(try await service.property(.state) == .string("processing"))
        try await service.recorder(.discard)
        try await service.recorder(.start)

        #expect(try await service.property(.state) == .string("recording"))
        #expect(try await service.modelsProperty(.downloadingLocale) == .string("ko-KR"), "the model is still downloading")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: service.recordingsFolder.path).count == 1, "the discarded audio is gone")
    }

    @Test func badRequestsGetNamedErrorsThatSayWhy() async throws {
        let bench = try Workbench()
        // A model Vosk's tools put elsewhere: it counts as installed, but it is not Notula's to delete.
        let elsewhere = bench.folder.appendingPathComponent("vosk-model-small-ko-0.22")
        for file in ["am/final.mdl", "conf/model.conf"] {
            let path = elsewhere.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: path)
        }
        let unreachable = "http://127.0.0.1:\(try closedLoopbackPort())/model-list.json"
        let service = try await ServiceUnderTest.start(
            environment: ["VOSK_MODEL_PATH": bench.folder.path, "NOTULA_MODEL_CATALOG": unreachable])

        func refusal(_ method: NotulaBus.Models.Method, _ arguments: [Value] = []) async -> BusError? {
            await #expect(throws: BusError.self) { try await service.models(method, arguments) }
        }
        let unknown = await refusal(.install, [.string("xx-YY")])
        #expect(unknown?.name == .invalidArgs)
        #expect(unknown?.message.contains("Supported: ko-KR") == true, "\(unknown?.message ?? "")")
        let notInstalled = await refusal(.remove, [.string("nl-NL")])
        #expect(notInstalled?.name == .invalidArgs)
        #expect(notInstalled?.message.contains("Installed: ko-KR") == true, "\(notInstalled?.message ?? "")")
        let notOurs = await refusal(.remove, [.string("ko-KR")])
        #expect(notOurs?.name.rawValue == "org.freedesktop.DBus.Error.AccessDenied")
        #expect(notOurs?.message.contains(elsewhere.path) == true, "\(notOurs?.message ?? "")")
        #expect(FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("am").path))
        let offline = await refusal(.refresh)
        #expect(offline?.name == .notulaFailed)
        #expect(offline?.message.contains("Cannot fetch the model catalog") == true, "\(offline?.message ?? "")")
        #expect(try await service.modelsProperty(.supportedLocales) == .array(element: "s", [.string("ko-KR")]))
        try await service.models(.install, [.string("ko-KR")])
        try await service.models(.cancel)
        #expect(try await service.modelsProperty(.downloadingLocale) == .string(""))
    }
}
