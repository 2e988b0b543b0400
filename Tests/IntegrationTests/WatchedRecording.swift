import DBus
import NotulaContract
import NotulaTestSupport

/// notulad recording from a PulseAudio server of the test's own, watched as a user sees it: the
/// recorder's events on the bus and the notifications a notification server receives.
struct WatchedRecording {
    let service: ServiceUnderTest
    let notifications: NotificationDaemonMock
    var events: AsyncStream<Message>.Iterator

    /// Starts the service recording from `source` on `sound`, and a recording; returns once both the
    /// recorder and the notification say Recording (or its translation, `firstSummary`).
    static func start(
        on sound: PrivateSoundServer, source: String = "mic.monitor", environment: [String: String] = [:],
        firstSummary: String = "Recording"
    ) async throws -> WatchedRecording {
        let bus = try PrivateBus()
        let notifications = try await NotificationDaemonMock(on: bus)
        let service = try await ServiceUnderTest.start(
            .named(source), environment: environment.merging(["PULSE_SERVER": sound.address]) { $1 }, on: bus)
        var events = try await service.recorderSignals().makeAsyncIterator()
        try await service.recorder(.start)
        let recording = RecorderEvent.state("recording", reason: "")
        _ = await events.events(until: recording)
        let posted = await notifications.nextNotification()?.summary
        guard posted == firstSummary else { throw UnexpectedNotification(summary: posted) }
        return WatchedRecording(service: service, notifications: notifications, events: events)
    }

    struct UnexpectedNotification: Error { let summary: String? }
}

/// The error a call ended in; nil when it succeeded.
func busError(_ call: () async throws -> Message) async -> BusError? {
    do {
        _ = try await call()
        return nil
    } catch {
        return error as? BusError
    }
}
