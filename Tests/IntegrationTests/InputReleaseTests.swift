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

    /// `Stop`'s answer: outcome and error.
    private func stop(_ client: Bus) async throws -> [String] {
        let reply = try await call(.stop, by: client)
        return [try reply.argument(0, as: String.self), try reply.argument(1, as: String.self)]
    }

    @discardableResult
    private func call(_ method: NotulaBus.Recorder.Method, by client: Bus) async throws -> Message {
        try await client.call(
            MethodCall(
                destination: NotulaBus.name, path: NotulaBus.recorderPath, interface: NotulaBus.recorderInterface, member: method.rawValue))
    }

    @Test func stopAnswersOnceTheServerHasNoStreamOfOursAndItsRepeatStopsNothing() async throws {
        let service = try await ServiceUnderTest.start()
        let monitor = try #require(service.sink?.monitor)
        #expect(try await stop(service.client) == ["released", ""], "idle: nothing held")

        try await service.recorder(.start)
        #expect(try streams(on: monitor) == 1)
        #expect(try await stop(service.client) == ["released", ""])
        #expect(try streams(on: monitor) == 0)
        #expect(try await !inputOpen(service))

        // Another client starts a recording; the first client's Stop, sent again, leaves it running.
        try await service.waitForState("idle")
        let other = try await service.daemon.connect()
        try await call(.start, by: other)
        #expect(try await stop(service.client) == ["released", ""])
        #expect(try await service.property(.state) == .string("recording"))
        #expect(try streams(on: monitor) == 1)
        // The other client's own Stop ends it.
        #expect(try await stop(other) == ["released", ""])
        #expect(try streams(on: monitor) == 0)
    }

    /// Each Stop sent as soon as its Start has begun the recording, before the input opens: each Stop's answer finds no stream left.
    @Test func aHundredQuickStartAndStopPairsLeaveNoStreamOnceEachStopAnswers() async throws {
        let service = try await ServiceUnderTest.start()
        let monitor = try #require(service.sink?.monitor)
        let client = service.client
        var left = 0
        for _ in 0..<100 {
            let started = Task { try await call(.start, by: client) }
            try await service.waitForState("recording")
            #expect(try await stop(client) == ["released", ""])
            left = max(left, try streams(on: monitor))
            _ = try await started.value
            try await service.waitForState("idle")
        }
        #expect(left == 0)
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
