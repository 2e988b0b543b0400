import DBus
import NotulaContract
import NotulaTestSupport
import Testing

/// `Dictate` sends a recording's words where its caller says: during a recording another connection started it is
/// refused with `NotAllowed`, and the recording goes on as its starter meant; its starter, or anyone when idle, may.
@Suite("Dictate takes over only its own caller's recording")
struct DictateOwnerTests {
    private static func dictate(through connection: Bus, output: String = "type") async throws -> Message {
        try await connection.call(
            MethodCall(
                destination: NotulaBus.name, path: NotulaBus.recorderPath, interface: NotulaBus.recorderInterface,
                member: NotulaBus.Recorder.Method.dictate.rawValue, arguments: [.string(output), .double(0)]))
    }

    @Test func anotherConnectionsDictateIsRefusedAndTheStartersWorks() async throws {
        let service = try await ServiceUnderTest.start()
        let other = try await service.daemon.connect()
        defer { Task { await other.close() } }

        try await service.recorder(.start)
        let refused = await busError { try await Self.dictate(through: other) }
        #expect(refused?.name == .notAllowed, "\(String(describing: refused))")
        #expect(refused?.message.contains("started elsewhere") == true, "\(String(describing: refused?.message))")
        #expect(try await service.property(.state) == .string("recording"))
        // The starter may make its own recording a dictation.
        #expect(await busError { try await Self.dictate(through: service.client, output: "memo") } == nil)
        #expect(try await service.property(.state) == .string("recording"))

        try await service.recorder(.discard)
        // Idle: anyone may dictate, and then it is the other connection's recording.
        #expect(await busError { try await Self.dictate(through: other, output: "memo") } == nil)
        #expect(await busError { try await Self.dictate(through: other, output: "memo") } == nil, "its own again")
        #expect(await busError { try await Self.dictate(through: service.client) }?.name == .notAllowed)
        #expect(try await service.property(.state) == .string("recording"))
    }
}
