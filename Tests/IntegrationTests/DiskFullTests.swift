import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// The recordings folder on a tmpfs of 128 kB: full after about four seconds of audio.
@Suite("A full disk pauses, keeps a valid WAV and refuses to go on until there is room", .serialized, .tags(.reliability))
struct DiskFullTests {
    private static let noSpace = NotulaErrorName.noSpace.rawValue.rawValue

    @Test func aFullDiskPausesKeepsTheWAVRefusesResumeAndStartAndStillProcessesAndDiscards() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("notula-test-\(UUID().uuidString)")
        let disk = try SmallFileSystem(at: home.appendingPathComponent("data/notula/recordings"), kilobytes: 128)
        let bus = try PrivateBus()
        let notifications = try await NotificationDaemonMock(on: bus)
        let service = try await ServiceUnderTest.start(on: bus, home: home)
        defer {
            _ = service.stop(with: SIGKILL)
            disk.unmount()
            try? FileManager.default.removeItem(at: home)
        }
        var events = try await service.recorderSignals().makeAsyncIterator()

        try await service.recorder(.start)
        let filled = await events.events { if case .failed = $0 { true } else { false } }
        #expect(filled.dropLast() == [.state("recording", reason: ""), .state("paused", reason: "disk-full")])
        guard case .failed(let name, let message)? = filled.last else { Issue.record("no Failed: \(filled)"); return }
        #expect(name == Self.noSpace && message.contains("No space left on device"), "\(message)")
        #expect(await notifications.nextNotification()?.summary == "Recording")
        #expect(await notifications.nextNotification()?.summary == "Paused: the disk is full")
        #expect(await notifications.nextNotification()?.summary == "The disk is full")

        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: disk.folder.path).first)
        let kept = try WAVReader(path: disk.folder.appendingPathComponent(file).path)
        #expect(kept.declaredDataBytes == kept.fileSize - 44 && kept.duration > 3, "\(kept.duration) s")
        guard case .double(let elapsed) = try await service.property(.elapsed) else { Issue.record("no Elapsed"); return }
        #expect(abs(elapsed - kept.duration) <= 0.1, "Elapsed \(elapsed) s, WAV \(kept.duration) s")

        for method: NotulaBus.Recorder.Method in [.resume, .toggle] {
            await #expect(throws: BusError.self) { try await service.recorder(method) }
            let refusal = await busError { try await service.recorder(method) }
            #expect(refusal?.name == .noSpace && refusal?.message.contains("No room left for recordings") == true)
        }
        #expect(try await service.property(.state) == .string("paused"))

        // Process works on a full disk: the memo keeps the audio as it is.
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        _ = await events.events(until: .state("idle", reason: ""))
        #expect(try await service.property(.duration, of: memo) == .double(kept.duration))
        #expect(await busError { try await service.recorder(.start) }?.name == .noSpace)

        // Room again (the memo deleted): a start works, fills the disk, and Discard frees it.
        try await service.memo(.delete, of: memo)
        try await service.recorder(.start)
        _ = await events.events { if case .failed = $0 { true } else { false } }
        try await service.recorder(.discard)
        // Discard answers before the capture deletes the file; the folder says when it has.
        try await poll(within: .seconds(10)) {
            try FileManager.default.contentsOfDirectory(atPath: disk.folder.path).isEmpty
        } otherwise: {
            DiscardedFileKept()
        }
        try await service.recorder(.start)
        try await service.recorder(.discard)
    }

    /// The library and the recordings on one tmpfs of 512 kB, as they are in one data folder: the
    /// library keeps a reserve (an eighth of the disk) that a recording cannot take, and spends it
    /// on saving what became of the memo the full disk cut short.
    @Test func aDiskFullUnderTheLibraryTooStillSavesTheMemoFromTheReserve() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("notula-test-\(UUID().uuidString)")
        let disk = try SmallFileSystem(at: home.appendingPathComponent("data/notula"), kilobytes: 512)
        let service = try await ServiceUnderTest.start(home: home)
        defer {
            _ = service.stop(with: SIGKILL)
            disk.unmount()
            try? FileManager.default.removeItem(at: home)
        }
        let reserve = disk.folder.appendingPathComponent("library.reserve").path
        let attributes = try FileManager.default.attributesOfItem(atPath: reserve)
        #expect(attributes[.size] as? Int == 64 * 1024 && attributes[.posixPermissions] as? Int == 0o600)
        var events = try await service.recorderSignals().makeAsyncIterator()

        try await service.recorder(.start)
        let filled = await events.events { if case .failed = $0 { true } else { false } }
        #expect(filled.dropLast() == [.state("recording", reason: ""), .state("paused", reason: "disk-full")])
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        _ = await events.events(until: .state("idle", reason: ""))

        // No model here: the memo failed to transcribe, and the library could say so.
        #expect(try await service.property(.status, of: memo) == .string("failed"), "\(service.log)")
        guard case .double(let duration) = try await service.property(.duration, of: memo) else { Issue.record("no Duration"); return }
        #expect(duration > 5, "\(duration) s")
        #expect(!FileManager.default.fileExists(atPath: reserve), "the reserve was spent")
        let refusal = await busError { try await service.recorder(.start) }
        #expect(
            refusal?.name == .noSpace && refusal?.message.contains("kept for the memo library") == true, "\(String(describing: refusal))")
    }

    private struct DiscardedFileKept: Error {}
}
