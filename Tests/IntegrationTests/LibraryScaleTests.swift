import DBus
import Foundation
import Library
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// A library that has grown for years: its memos cost the service nothing until asked for.
@Suite("A library of many memos", .tags(.reliability))
struct LibraryScaleTests {
    static let memoCount = 20_000

    /// A home whose library holds `count` finished memos, all pointing at one real audio file.
    private static func homeWithLibrary(of count: Int) throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("notula-test-\(UUID().uuidString)")
        let data = home.appendingPathComponent("data/notula")
        try FileManager.default.createDirectory(at: data.appendingPathComponent("recordings"), withIntermediateDirectories: true)
        let audio = data.appendingPathComponent("recordings/shared.wav").path
        _ = FileManager.default.createFile(atPath: audio, contents: Data(count: 44))
        let store = try MemoStore(path: data.appendingPathComponent("library.sqlite3").path)
        for index in 0..<count {
            let created = Int64(1_700_000_000_000_000 + index * 60_000_000)
            var memo = Memo(id: String(created), created: created, locale: "en-US", audioFile: audio)
            memo.status = .done
            memo.transcript = "ward round \(index) with patient number \(index % 97)"
            memo.written = memo.transcript
            try store.insert(memo)
        }
        return home
    }

    @Test("notulad over 20 000 memos uses the memory it uses over none, and each memo answers when named")
    func memosCostNothingUntilAsked() async throws {
        // Both read their model catalog from a file, so that neither loads libcurl to fetch one
        // while its memory is read.
        let catalog = FileManager.default.temporaryDirectory.appendingPathComponent("notula-catalog-\(UUID().uuidString).json")
        try Data("[]".utf8).write(to: catalog)
        defer { try? FileManager.default.removeItem(at: catalog) }
        let environment = ["NOTULA_MODEL_CATALOG": catalog.path]
        let empty = try await ServiceUnderTest.start(environment: environment)
        let emptyBytes = empty.residentBytes
        _ = empty.stop()

        let service = try await ServiceUnderTest.start(environment: environment, home: try Self.homeWithLibrary(of: Self.memoCount))
        let grownBy = service.residentBytes - emptyBytes
        #expect(grownBy < 4 << 20, "notulad grew by \(grownBy >> 20) MB with \(Self.memoCount) memos")
        #expect(
            try await service.property(.count)
                == .uint32(UInt32(Self.memoCount)))

        let page = try await service.library(.list, [.uint32(10_000), .uint32(1)])
            .argument(0, as: [ObjectPath].self)
        let middle = try #require(page.first)
        #expect(try await service.property(.status, of: middle) == .string("done"))
        let text = try await service.memo(.getTranscript, of: middle).argument(0, as: String.self)
        #expect(text == "ward round 9999 with patient number \(9999 % 97)")

        let hits = try await service.library(
            .search, [.string("\"number 42\""), .uint32(5)]
        )
        .argument(0, as: [DBusStruct<ObjectPath, String>].self)
        #expect(hits.count == 5 && hits.allSatisfy { $0.fields.1.contains("«number 42»") })

        let beforeListing = service.residentBytes
        let managed = try await service.call(NotulaBus.rootPath, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
            .argument(0, as: [ObjectPath: [String: [String: Variant]]].self)
        #expect(managed.keys.filter { $0.rawValue.hasPrefix("/org/notula/Notula1/Memos/") }.count == Self.memoCount)
        // The listing is written into its reply a page of rows at a time, never built whole
        // beside it: built whole, it left notulad over 60 MB larger. What may stay is the
        // reply's own size (about 7 MB here), which glibc can keep for reuse once freed.
        let keptBy = service.residentBytes - beforeListing
        #expect(keptBy < 12 << 20, "listing every memo left notulad \(keptBy >> 20) MB larger")
    }
}
