import DBus
import NotulaTestSupport
import Testing

/// Whether a peer can be handed a file descriptor: the daemon refuses to route one over TCP.
@Suite("Which peers can receive file descriptors")
struct DescriptorPassingTests {
    @Test func aPeerOnTheUnixSocketCanAndOneOverTCPCannot() async throws {
        let daemon = try PrivateBus(overTCP: true)
        let tcpAddress = try #require(daemon.tcpAddress, "the bus listens on TCP too")
        let server = try await daemon.connect()
        let local = try await daemon.connect()
        let remote = try await Bus.connect(address: tcpAddress)
        let localName = try #require(BusName(await local.uniqueName))
        let remoteName = try #require(BusName(await remote.uniqueName))

        #expect(try await server.canPassFileDescriptors(to: localName))
        #expect(try await server.canPassFileDescriptors(to: remoteName) == false)
        // Asked again, and in the other order: no answer of the peers' is left to confuse the next probe.
        #expect(try await server.canPassFileDescriptors(to: remoteName) == false)
        #expect(try await server.canPassFileDescriptors(to: localName))
        for bus in [remote, local, server] { await bus.close() }
    }
}
