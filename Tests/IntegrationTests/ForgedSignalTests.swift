import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

/// The bus delivers a unicast signal from anyone: notulad believes logind's `PrepareForSleep` and the
/// notification server's `ActionInvoked` only from the connection that owns that name.
@Suite("Forged signals change nothing", .serialized)
struct ForgedSignalTests {
    @Test func aStrangersPrepareForSleepDoesNotPauseButLogindsDoes() async throws {
        let logind = try await LogindMock()
        let service = try await ServiceUnderTest.start(environment: logind.environment)
        var events = try await service.recorderSignals().makeAsyncIterator()
        try await poll(within: .seconds(10)) {
            try await logind.sleepDelayLocks() == ["Notula"]
        } otherwise: {
            NotOnTheSystemBus()
        }
        try await service.recorder(.start)
        #expect(await events.events(until: .state("recording", reason: "")) == [.state("recording", reason: "")])

        let stranger = try await logind.systemBus.connect()
        let target = try #require(try await service.connectionName(on: stranger))
        try await stranger.emit(
            path: ObjectPath("/org/freedesktop/login1")!, interface: "org.freedesktop.login1.Manager", member: "PrepareForSleep",
            arguments: [.boolean(true)], destination: target)
        // notulad reads its system bus in order: its answer to a later call means the signal was judged.
        _ = try? await stranger.call(MethodCall(destination: target, path: .root, interface: "org.freedesktop.DBus.Peer", member: "Ping"))
        try await service.recorder(.pause)
        #expect(await events.events(until: Self.isPaused) == [.state("paused", reason: "user")], "the forged sleep paused nothing")

        try await service.recorder(.resume)
        try await logind.prepareForSleep(true)
        #expect(
            await events.events(until: Self.isPaused) == [.state("recording", reason: ""), .state("paused", reason: "sleep")])
        try await service.recorder(.discard)
        await stranger.close()
    }

    @Test func aStrangersActionInvokedDoesNothingButTheServersDoes() async throws {
        let bus = try PrivateBus()
        let server = try await NotificationDaemonMock(on: bus)
        let service = try await ServiceUnderTest.start(on: bus)
        var events = try await service.recorderSignals().makeAsyncIterator()
        try await service.recorder(.toggle)
        #expect(try #require(await server.nextNotification()).summary == "Recording")
        let id: UInt32 = 1  // the mock numbers its notifications from 1
        #expect(await events.events(until: Self.isState) == [.state("recording", reason: "")])

        let stranger = try await bus.connect()
        let owner = try #require(try await service.client.owner(of: NotulaBus.name))
        let target = try #require(BusName(owner))
        try await stranger.emit(
            path: ObjectPath("/org/freedesktop/Notifications")!, interface: "org.freedesktop.Notifications", member: "ActionInvoked",
            arguments: [.uint32(id), .string("discard")], destination: target)
        _ = try await stranger.call(
            MethodCall(destination: target, path: NotulaBus.recorderPath, interface: "org.freedesktop.DBus.Peer", member: "Ping"))
        try await service.recorder(.pause)
        #expect(await events.events(until: Self.isState) == [.state("paused", reason: "user")], "the forged discard did nothing")

        try await server.invoke("toggle", on: id)
        #expect(await events.events(until: Self.isState) == [.state("recording", reason: "")])
        try await service.recorder(.discard)
        await stranger.close()
    }

    private struct NotOnTheSystemBus: Error {}

    private static func isPaused(_ event: RecorderEvent) -> Bool {
        if case .state("paused", _) = event { true } else { false }
    }

    /// Any change of state: the next one is what a signal did, whichever it was.
    private static func isState(_ event: RecorderEvent) -> Bool {
        if case .state = event { true } else { false }
    }
}
