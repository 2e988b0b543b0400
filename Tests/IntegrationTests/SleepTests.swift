import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// logind's PrepareForSleep, from python3-dbusmock's logind template on a private bus that
/// notulad takes for the system bus.
@Suite("Sleep pauses the recording, and waking does not resume it", .serialized, .tags(.reliability))
struct SleepTests {
    @Test func prepareForSleepPausesAndTheRecordingStaysPausedAfterWaking() async throws {
        let logind = try await LogindMock()
        let bus = try PrivateBus()
        let notifications = try await NotificationDaemonMock(on: bus)
        let service = try await ServiceUnderTest.start(environment: logind.environment, on: bus)
        var events = try await service.recorderSignals().makeAsyncIterator()
        try await service.recorder(.start)
        #expect(await notifications.nextNotification()?.summary == "Recording")

        // Sleep waits for the service's delay lock, released once the recording is paused.
        #expect(try await logind.sleepDelayLocks() == ["Notula"])
        try await logind.prepareForSleep(true)
        let asleep = RecorderEvent.state("paused", reason: "sleep")
        #expect(await events.events(until: asleep) == [.state("recording", reason: ""), asleep])
        #expect(await notifications.nextNotification()?.summary == "Paused: the computer went to sleep")
        try await poll(within: .seconds(10)) {
            try await logind.sleepDelayLocks().isEmpty
        } otherwise: {
            LockKept()
        }

        // Waking says nothing the service acts on: the next change is the user's own Pause, taking the recording over.
        try await logind.prepareForSleep(false)
        try await poll(within: .seconds(10)) {
            try await logind.sleepDelayLocks() == ["Notula"]
        } otherwise: {
            LockKept()
        }
        try await service.recorder(.pause)
        let userPaused = RecorderEvent.state("paused", reason: "user")
        #expect(await events.events(until: userPaused) == [userPaused])
        try await service.recorder(.discard)
    }

    private struct LockKept: Error {}

    @Test func withoutASystemBusNothingElseChanges() async throws {
        let service = try await ServiceUnderTest.start(environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/system_bus_socket"])
        try await service.waitForLog("No system bus")
        try await service.recorder(.start)
        try await service.recorder(.pause)
        #expect(try await service.property(.pauseReason) == .string("user"))
        try await service.recorder(.discard)
    }
}
