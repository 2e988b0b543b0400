import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

/// Memos are clinical notes: notulad's files are the user's alone from their first byte, and no
/// settings.json can keep it from starting.
@Suite("Private files and sturdy settings", .serialized)
struct PrivateFilesTests {
    @Test(arguments: [
        (#""modelIdleSeconds": 1e30"#, "modelIdleSeconds"), (#""longestMemoSeconds": 1e15"#, "longestMemoSeconds"),
        (#""modelIdleSeconds": -5"#, "modelIdleSeconds"), (#""longestMemoSeconds": -5"#, "longestMemoSeconds"),
        (#""modelIdleSeconds": "abc""#, "modelIdleSeconds"), (#""mpris": "yes""#, "mpris"), (#""locale": 42"#, "locale"),
    ])
    func aBadSettingIsWarnedAboutAndTheRestIsUsed(setting: String, field: String) async throws {
        // The source, named only in the settings, is the one the failed Start names: the good fields are read.
        let service = try await ServiceUnderTest.start(.fromSettings("microphone_from_settings"), settings: [setting])
        let warning = service.log.split(separator: "\n").first { $0.hasPrefix("<4>") && $0.contains(field) }
        #expect(warning != nil, "no warning about \(field):\n\(service.log)")
        #expect(warning?.contains("default") == true, "\(String(describing: warning))")
        let error = await busError { try await service.recorder(.start) }
        #expect(error?.message.contains("microphone_from_settings") == true, "\(String(describing: error))")
        #expect(try await service.property(.state) == .string("idle"))
    }

    @Test func everyFileIsPrivateFromItsFirstByte() async throws {
        let catalog = FileManager.default.temporaryDirectory.appendingPathComponent("notula-catalog-\(UUID().uuidString).json")
        try Data(
            #"[{"lang": "ko", "lang_text": "Korean", "name": "vosk-model-small-ko-0.22", "obsolete": "false", "type": "small", "url": "http://127.0.0.1:9/ko.zip", "size": 10, "size_text": "0MiB", "md5": "00000000000000000000000000000000", "version": "0.22"}]"#
                .utf8
        ).write(to: catalog)
        defer { try? FileManager.default.removeItem(at: catalog) }
        // The folders exist before the service starts, so that every file made in them is seen.
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("notula-test-\(UUID().uuidString)")
        let folders = ["config/notula", "data/notula", "data/notula/recordings"].map { home.appendingPathComponent($0).path }
        for folder in folders { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        for folder in ["config", "data", "cache"] + folders.map({ String($0.dropFirst(home.path.count + 1)) }) {
            chmod(home.appendingPathComponent(folder).path, 0o700)
        }
        let watch = try FileWatch(folders)
        let service = try await ServiceUnderTest.start(environment: ["NOTULA_MODEL_CATALOG": catalog.path], home: home)

        #expect(try umask(ofProcess: try await processID(of: service)) == "0077")
        var modelChanges = try await service.signals(of: NotulaBus.modelsPath, interface: NotulaBus.modelsInterface).makeAsyncIterator()
        // The catalog is read after the start: wait for the locale it brings, unless it came already.
        while try ![String](
            dbusValue: try await service.modelsProperty(.supportedLocales)
        )
        .contains("ko-KR") {
            guard await modelChanges.next() != nil else { break }
        }
        // Picking a locale writes settings.json; a recording sent writes its WAV and the library.
        _ = try await service.call(
            NotulaBus.recorderPath, "org.freedesktop.DBus.Properties", "Set",
            [
                .string(NotulaBus.recorderInterface.rawValue), .string(NotulaBus.Recorder.Property.locale.rawValue),
                .variant(.string("ko-KR")),
            ])
        _ = try await recordMemos(1, on: service)

        watch.read()
        let made = Set(watch.made.map(\.path))
        for expected in ["config/notula/settings.json", "data/notula/library.sqlite3"] {
            #expect(made.contains(home.appendingPathComponent(expected).path), "\(expected) was not seen made: \(watch.made)")
        }
        #expect(watch.made.contains { $0.path.hasSuffix(".wav") }, "no recording seen made: \(watch.made)")
        // SQLite opens its journals with the database's mode, and as root hands them to its owner (a chown).
        let changed = watch.changedAttributes.filter { path in !["-journal", "-wal", "-shm"].contains { path.hasSuffix($0) } }
        #expect(changed.isEmpty, "files whose mode changed after they were made: \(changed)")
        #expect(watch.made.allSatisfy { $0.mode == nil || $0.mode == 0o600 }, "\(watch.made)")
        try expectOnlyItsOwnFiles(in: service.home)
    }

    /// The process id of the service, as the bus knows it.
    private func processID(of service: ServiceUnderTest) async throws -> UInt32 {
        let reply = try await service.client.call(
            MethodCall(
                destination: "org.freedesktop.DBus", path: ObjectPath("/org/freedesktop/DBus")!, interface: "org.freedesktop.DBus",
                member: "GetConnectionUnixProcessID", arguments: [.string(NotulaBus.name.rawValue)]))
        return try reply.argument(0, as: UInt32.self)
    }

    private func umask(ofProcess pid: UInt32) throws -> String {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") } ?? ""
        return line.split(separator: "\t").last.map(String.init) ?? ""
    }
}

/// Whatever happened, the service wrote only in its own folders, folders 0700 and files 0600 — and
/// libpulse its cookie, as every PulseAudio client makes one where there is none. The test's own log and empty
/// catalog are beside them.
func expectOnlyItsOwnFiles(in home: URL) throws {
    let own = ["data/notula", "config/notula", "cache/notula", "config/pulse"]
    let walker = FileManager.default.enumerator(at: home, includingPropertiesForKeys: nil)
    while let url = walker?.nextObject() as? URL {
        let relative = String(url.path.dropFirst(home.path.count + 1))
        guard relative != "notulad.log", relative != "no-catalog.json", !own.contains(where: { $0.hasPrefix(relative) }) else { continue }
        #expect(own.contains { relative.hasPrefix($0 + "/") || relative == $0 }, "written outside its folders: \(relative)")
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        let isFolder = attributes[.type] as? FileAttributeType == .typeDirectory
        #expect((attributes[.posixPermissions] as? Int) == (isFolder ? 0o700 : 0o600), "\(relative)")
    }
}
