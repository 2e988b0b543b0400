import DBus
import Foundation
import Glibc
import NotulaContract
import NotulaTestSupport
import Testing

extension ServiceUnderTest {
    /// The newest memo's object, from the library's list.
    func newestMemo() async throws -> ObjectPath {
        let listed = try await call(NotulaBus.libraryPath, NotulaBus.libraryInterface, "List", [.uint32(0), .uint32(1)])
        return try #require(try listed.argument(0, as: [ObjectPath].self).first)
    }

    /// Returns once the recorder reports `state` in the signals followed.
    func until(_ state: String, in signals: AsyncStream<Message>) async {
        for await signal in signals where signal.member == "PropertiesChanged" {
            if let changed = try? signal.argument(1, as: [String: Variant].self), changed["State"]?.value == .string(state) { return }
        }
    }
}

/// What a recording in progress must leave when its service stops: a WAV whose header matches its samples,
/// holding what was played into it, and the memo's row, recovered (and so transcribed) at the next start.
private func expectKept(_ memo: ObjectPath, recorded: Double, by stopped: ServiceUnderTest) async throws {
    let again = try await ServiceUnderTest.start(home: stopped.home)
    #expect(try await again.property(.status, of: memo) == .string("recovered"))
    guard case .string(let file) = try await again.property(.audioFile, of: memo) else { throw MissingInterface(name: "AudioFile") }
    let wav = try WAVReader(path: file)
    #expect(wav.declaredDataBytes == wav.samples.count * 2 && wav.riffSize == wav.fileSize - 8)
    // The capture delivers with up to about a second of latency, and what is in flight at the stop is not kept.
    #expect(wav.duration >= recorded - 1.25, "recorded \(recorded) s, kept \(wav.duration) s")
    #expect(wav.windowLevels.filter { $0 > -40 }.count >= 10, "the kept audio is not what was played")
    #expect(try await again.property(.duration, of: memo) == .double(wav.duration))
}

@Suite("The service's life: a clean stop keeps the recording, --replace takes over", .serialized)
struct ServiceLifeTests {
    @Test("SIGTERM mid-recording: the flow shows paused, the name is released, and the memo is kept, playable")
    func sigtermKeepsAPausedMemo() async throws {
        let service = try await ServiceUnderTest.start()
        let sink = try #require(service.sink)
        let signals = try await service.recorderSignals()
        try await service.recorder(.start)
        let memo = try await service.newestMemo()
        try await sink.play(try speech("A clean stop keeps this note as a paused memo"))
        guard case .double(let recorded) = try await service.property(.elapsed) else { throw MissingInterface(name: "Elapsed") }
        #expect(service.stop() == 0)
        await service.until("paused", in: signals)
        #expect(try await service.client.owner(of: NotulaBus.name) == nil)
        #expect(service.log.contains("Kept the recording in progress: memo \(memo.rawValue.split(separator: "/").last ?? "")"))
        try await expectKept(memo, recorded: recorded, by: service)
    }

    @Test("--replace: the running notulad keeps its recording, leaves with status 0, and the new one owns the name")
    func replaceTakesTheNameOver() async throws {
        let first = try await ServiceUnderTest.start()
        let sink = try #require(first.sink)
        try await first.recorder(.start)
        let memo = try await first.newestMemo()
        try await sink.play(try speech("Replaced while recording"))
        guard case .double(let recorded) = try await first.property(.elapsed) else { throw MissingInterface(name: "Elapsed") }
        let firstOwner = try await first.client.owner(of: NotulaBus.name)

        let second = try await ServiceUnderTest.start(extraArguments: ["--replace"], on: first.daemon, home: first.home)
        // Owning the name, the new instance holds calls until its objects are there: no UnknownObject meanwhile.
        #expect(try await second.property(.state) == .string("idle"))
        #expect(first.waitForExit() == 0)
        #expect(try await second.client.owner(of: NotulaBus.name) != firstOwner)
        #expect(try await second.property(.status, of: memo) == .string("recovered"))
        _ = second.stop()
        try await expectKept(memo, recorded: recorded, by: second)
    }
}
