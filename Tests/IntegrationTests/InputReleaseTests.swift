import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

/// `InputOpen`: true while Notula's record stream exists on the sound server, false once the server has removed it.
@Suite("The microphone is released, and the recorder says when", .serialized, .timeLimit(.minutes(3)))
struct InputReleaseTests {
    /// The record streams on `source`, as `pactl` lists them: notulad's, in a server other tests share.
    private func streams(on source: String) throws -> Int {
        let sources = try JSONSerialization.jsonObject(with: Data(try output(of: "pactl", "--format=json", "list", "sources").utf8))
        guard let index = (sources as? [[String: Any]])?.first(where: { $0["name"] as? String == source })?["index"] as? Int else {
            throw MissingOutput()
        }
        let outputs = try JSONSerialization.jsonObject(with: Data(try output(of: "pactl", "--format=json", "list", "source-outputs").utf8))
        return ((outputs as? [[String: Any]]) ?? []).filter { $0["source"] as? Int == index }.count
    }

    private func inputOpen(_ service: ServiceUnderTest) async throws -> Bool {
        guard case .boolean(let open) = try await service.property(.inputOpen) else { throw MissingOutput() }
        return open
    }

    @Test func inputOpenIsFalseOnlyOnceTheServerHasNoStreamOfOurs() async throws {
        let service = try await ServiceUnderTest.start()
        let monitor = try #require(service.sink?.monitor)
        let changes = try await service.signals(of: NotulaBus.recorderPath, interface: "org.freedesktop.DBus.Properties")
        #expect(try await !inputOpen(service))

        try await service.recorder(.start)
        #expect(try await inputOpen(service))
        #expect(try streams(on: monitor) == 1)
        try await service.recorder(.pause)
        #expect(try await inputOpen(service), "corked, the stream is still there")

        _ = try await service.recorder(.process)
        // The change is signalled; the moment it is, the server lists no stream of ours.
        for await message in changes {
            guard case .dictionary(_, _, let changed)? = message.body.dropFirst().first,
                changed.contains(where: { $0.key == .string("InputOpen") && $0.value == .variant(.boolean(false)) })
            else { continue }
            #expect(try streams(on: monitor) == 0)
            break
        }
        #expect(try await !inputOpen(service))
    }

    @Test func aHundredQuickStartsAndDiscardsNeverLeaveTwoStreams() async throws {
        let service = try await ServiceUnderTest.start()
        let monitor = try #require(service.sink?.monitor)
        var most = 0
        for _ in 0..<100 {
            try await service.recorder(.start)
            most = max(most, try streams(on: monitor))
            try await service.recorder(.discard)
        }
        try await poll(within: .seconds(10), until: { try await !inputOpen(service) }) { MissingOutput() }
        #expect(most == 1)
        #expect(try streams(on: monitor) == 0)
    }
}
