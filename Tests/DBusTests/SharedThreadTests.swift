import DBus
import NotulaTestSupport
import Testing

private let path = ObjectPath("/org/notula/Test/Shared")!

private func greeter(_ greeting: String) -> Interface {
    Interface("org.notula.Test.Greeter", methods: [Method("Greet", outputs: [Argument("greeting", "s")]) { _ in .now([.string(greeting)]) }])
}

@Suite("Connections that share one bus thread")
struct SharedThreadTests {
    /// Each connection answers only for its own objects, and one ending leaves the other answering.
    @Test func eachAnswersForItsOwnObjectsAndOutlivesTheOther() async throws {
        let daemon = try PrivateBus()
        let first = try await daemon.connect()
        let second = try await Bus.connect(address: daemon.address, sharingThreadOf: first)
        let client = try await daemon.connect()
        await first.export(path, interfaces: [greeter("first")])
        func greet(_ bus: Bus) async throws -> String {
            let reply = try await client.call(
                MethodCall(destination: BusName(await bus.uniqueName), path: path, interface: "org.notula.Test.Greeter", member: "Greet"))
            return try reply.argument(0, as: String.self)
        }
        #expect(await first.uniqueName != second.uniqueName)
        #expect(try await greet(first) == "first")
        await #expect(throws: BusError(.unknownObject, "No object at path /org/notula/Test/Shared")) { _ = try await greet(second) }

        await second.export(path, interfaces: [greeter("second")])
        #expect(try await greet(second) == "second")
        await second.close()
        #expect(try await greet(first) == "first", "the thread goes on for the connection that made it")
        await #expect(throws: BusError.self) { _ = try await greet(second) }

        // One made on the first's thread and dropped without close: the first still answers.
        _ = try await Bus.connect(address: daemon.address, sharingThreadOf: first)
        #expect(try await greet(first) == "first")
        await client.close()
        await first.close()
    }
}
