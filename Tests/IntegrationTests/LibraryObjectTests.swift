import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

extension ServiceUnderTest {
    /// The object manager's announcements, in order, from now on.
    func objectManagerSignals() async throws -> AsyncStream<Message> {
        try await client.signals(
            matching: MatchRule(sender: NotulaBus.name, path: NotulaBus.rootPath, interface: "org.freedesktop.DBus.ObjectManager"))
    }

    /// Records a short memo (nothing played: no speech model is needed to fail its transcription)
    /// and returns it once its transcription has ended.
    func recordMemo() async throws -> ObjectPath {
        let signals = try await recorderSignals()
        try await recorder(.start)
        let memo = try await recorder(.process).argument(0, as: ObjectPath.self)
        try await untilProcessed(signals)
        return memo
    }

    /// Returns at the recorder's Processed or Failed signal: the transcription has ended.
    func untilProcessed(_ signals: AsyncStream<Message>) async throws {
        for await signal in signals where signal.isSignal(.processed) || signal.isSignal(.failed) { return }
    }
}

@Suite("The library on the bus: the object manager, the memo objects, list and search", .serialized)
struct LibraryObjectTests {
    @Test("A memo is announced the moment its recording starts, without its transcript, and counted")
    func announcedAtStart() async throws {
        let service = try await ServiceUnderTest.start()
        let announcements = try await service.objectManagerSignals()
        let signals = try await service.recorderSignals()
        var events = announcements.makeAsyncIterator()
        try await service.recorder(.start)
        let added = try #require(await events.next())
        #expect(added.member == "InterfacesAdded")
        let path = try added.argument(0, as: ObjectPath.self)
        let interfaces = try added.argument(1, as: [String: [String: Variant]].self)
        let memo = try #require(interfaces[NotulaBus.memoInterface.rawValue])
        #expect(try memo["Status"]?.get(String.self) == "recording")
        #expect(try memo["Title"]?.get(String.self).hasPrefix("Memo ") == true)
        #expect(memo["Transcript"] == nil && memo["Text"] == nil)
        #expect(try await service.property(.count) == .uint32(1))

        let managed = try await service.call(NotulaBus.rootPath, "org.freedesktop.DBus.ObjectManager", "GetManagedObjects")
            .argument(0, as: [ObjectPath: [String: [String: Variant]]].self)
        #expect(managed[path]?[NotulaBus.memoInterface.rawValue] != nil)
        #expect(try await service.recorder(.process).argument(0, as: ObjectPath.self) == path)
        try await service.untilProcessed(signals)
    }

    @Test("List pages newest first; a renamed memo is found by its new title, accents aside; a bad query is InvalidArgs")
    func listRenameSearch() async throws {
        let service = try await ServiceUnderTest.start()
        let first = try await service.recordMemo()
        let second = try await service.recordMemo()
        let listed = try await service.library(.list, [.uint32(0), .uint32(10)])
        #expect(try listed.argument(0, as: [ObjectPath].self) == [second, first])
        let page = try await service.library(.list, [.uint32(1), .uint32(10)])
        #expect(try page.argument(0, as: [ObjectPath].self) == [first])

        _ = try await service.call(
            first, "org.freedesktop.DBus.Properties", "Set",
            [
                .string(NotulaBus.memoInterface.rawValue), .string(NotulaBus.Memo.Property.title.rawValue),
                .variant(.string("Réunion du café")),
            ])
        #expect(try await service.property(.title, of: first) == .string("Réunion du café"))
        let hits = try await service.library(.search, [.string("cafe"), .uint32(10)])
            .argument(0, as: [DBusStruct<ObjectPath, String>].self)
        #expect(hits.map(\.fields.0) == [first])
        #expect(hits.first?.fields.1.contains("«café»") == true)

        await #expect {
            _ = try await service.library(.search, [.string("\"unclosed"), .uint32(10)])
        } throws: { ($0 as? BusError)?.name == .invalidArgs }
    }

    @Test("Delete removes the row and the audio together, and the object goes away")
    func delete() async throws {
        let service = try await ServiceUnderTest.start()
        let memo = try await service.recordMemo()
        guard case .string(let file) = try await service.property(.audioFile, of: memo) else {
            throw MissingInterface(name: "AudioFile")
        }
        #expect(FileManager.default.fileExists(atPath: file))
        let announcements = try await service.objectManagerSignals()
        var events = announcements.makeAsyncIterator()
        _ = try await service.memo(.delete, of: memo)
        let removed = try #require(await events.next())
        #expect(removed.member == "InterfacesRemoved")
        #expect(try removed.argument(0, as: ObjectPath.self) == memo)
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(try await service.property(.count) == .uint32(0))
        await #expect {
            try await service.property(.title, of: memo)
        } throws: { ($0 as? BusError)?.name == .unknownObject }
    }

    @Test("Delete leaves no trace of the memo: its title is in no file under the data folder, its opened text is gone")
    func deleteLeavesNoTrace() async throws {
        let service = try await ServiceUnderTest.start()
        let kept = try await service.recordMemo()
        let memo = try await service.recordMemo()
        _ = try await service.call(
            memo, "org.freedesktop.DBus.Properties", "Set",
            [
                .string(NotulaBus.memoInterface.rawValue), .string(NotulaBus.Memo.Property.title.rawValue),
                .variant(.string("Quokkaword consult")),
            ])
        _ = try await service.call(
            kept, "org.freedesktop.DBus.Properties", "Set",
            [.string(NotulaBus.memoInterface.rawValue), .string(NotulaBus.Memo.Property.title.rawValue), .variant(.string("Ward round"))])
        // The text a click on the result notification opened, written where the viewer writes it.
        let id = memo.rawValue.split(separator: "/").last.map(String.init) ?? ""
        let data = service.home.appendingPathComponent("data/notula")
        let opened = data.appendingPathComponent("transcripts/\(id).txt")
        try FileManager.default.createDirectory(at: opened.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("Quokkaword consult".utf8).write(to: opened)
        #expect(!(try filesHolding("quokkaword", under: data)).isEmpty)

        _ = try await service.memo(.delete, of: memo)
        #expect(!FileManager.default.fileExists(atPath: opened.path))
        #expect(try filesHolding("quokkaword", under: data) == [])
        #expect(try await service.property(.title, of: kept) == .string("Ward round"))
    }

    @Test("Delete refuses the recording in progress, saying Discard throws it away; once sent, it deletes")
    func deleteRefusesOnlyTheRecordingInProgress() async throws {
        let service = try await ServiceUnderTest.start()
        let signals = try await service.recorderSignals()
        try await service.recorder(.start)
        let listed = try await service.library(.list, [.uint32(0), .uint32(1)])
        let memo = try #require(try listed.argument(0, as: [ObjectPath].self).first)
        let refused = await #expect(throws: BusError.self) { try await service.memo(.delete, of: memo) }
        #expect(
            refused?.name == .invalidState && refused?.message.contains("Discard") == true,
            "\(String(describing: refused))")
        try await service.recorder(.process)
        try await service.untilProcessed(signals)
        _ = try await service.memo(.delete, of: memo)
        #expect(try await service.property(.count) == .uint32(0))
    }

    @Test("Memos outlive the service: a new notulad on the same folders lists them")
    func persists() async throws {
        let service = try await ServiceUnderTest.start()
        let memo = try await service.recordMemo()
        #expect(service.stop() == 0)
        let again = try await ServiceUnderTest.start(home: service.home)
        let listed = try await again.library(.list, [.uint32(0), .uint32(10)])
        #expect(try listed.argument(0, as: [ObjectPath].self) == [memo])
        #expect(try await again.property(.status, of: memo) == .string("failed"))
        // Clinical notes: the database and its write-ahead log are the user's alone.
        let data = service.home.appendingPathComponent("data/notula")
        for name in ["library.sqlite3", "library.sqlite3-wal"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: data.appendingPathComponent(name).path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600, "\(name)")
        }
    }
}

/// The files under `folder` whose bytes hold `word`, letter case aside.
func filesHolding(_ word: String, under folder: URL) throws -> [String] {
    let wanted = Data(word.lowercased().utf8)
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
    return try files.filter { file in
        guard (try file.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { return false }
        return Data(try Data(contentsOf: file).map { (65...90).contains($0) ? $0 + 32 : $0 }).range(of: wanted) != nil
    }.map(\.lastPathComponent)
}
