import DBus
import Notifying
import Synchronization

@testable import Recording

/// A notification server that records every call in order; it can be absent, fail, and tell events.
actor NotificationServerDouble: NotificationServer {
    enum Call: Equatable {
        case capabilities
        case notify(DesktopNotification, replacing: UInt32)
        case close(UInt32)
    }

    private(set) var calls: [Call] = []
    /// nil: no server owns the name.
    var offered: Set<String>?
    var failsNotify = false
    private var nextID: UInt32 = 1
    /// Set while Notify calls are held before they answer, as a slow server's reply is.
    private var holding = false
    private var held: [CheckedContinuation<Void, Never>] = []
    private var heldWaiters: [CheckedContinuation<Void, Never>] = []
    nonisolated let told: AsyncStream<NotificationServerEvent>
    private let tell: AsyncStream<NotificationServerEvent>.Continuation

    init(capabilities: Set<String>? = ["actions", "body", "body-markup"]) {
        offered = capabilities
        (told, tell) = AsyncStream.makeStream(of: NotificationServerEvent.self)
    }

    func offer(_ capabilities: Set<String>?) { offered = capabilities }
    func failNotify() { failsNotify = true }
    func forgetCalls() { calls = [] }

    /// Notify calls from now on wait for `answerHeld` before they return their id.
    func holdNotifies() { holding = true }

    /// Returns once a Notify call is held.
    func untilHeld() async {
        if !held.isEmpty { return }
        await withCheckedContinuation { heldWaiters.append($0) }
    }

    /// The held Notify calls return, and the next ones answer at once.
    func answerHeld() {
        holding = false
        held.forEach { $0.resume() }
        held = []
    }

    /// What was posted, in order.
    var notified: [(DesktopNotification, replacing: UInt32)] {
        calls.compactMap { if case .notify(let notification, let id) = $0 { (notification, id) } else { nil } }
    }

    func events() async throws(BusError) -> AsyncStream<NotificationServerEvent> { told }

    func capabilities() async throws(BusError) -> Set<String> {
        calls.append(.capabilities)
        guard let offered else { throw BusError(.serviceUnknown, "The name org.freedesktop.Notifications was not provided") }
        return offered
    }

    func notify(_ notification: DesktopNotification, replacing id: UInt32) async throws(BusError) -> UInt32 {
        calls.append(.notify(notification, replacing: id))
        if failsNotify { throw BusError(.failed, "refused") }
        if holding {
            await withCheckedContinuation {
                held.append($0)
                heldWaiters.forEach { $0.resume() }
                heldWaiters = []
            }
        }
        if id != 0 { return id }
        defer { nextID += 1 }
        return nextID
    }

    func close(_ id: UInt32) async throws(BusError) { calls.append(.close(id)) }
}

/// Collects what a notifier sends back and what it logs.
final class Sent: Sendable {
    private let performed = Mutex<[String]>([])
    private let lines = Mutex<[String]>([])

    var actions: [String] { performed.withLock { $0 } }
    var log: [String] { lines.withLock { $0 } }

    func note(_ what: String) { performed.withLock { $0.append(what) } }
    func write(_ line: String) { lines.withLock { $0.append(line) } }
}

/// The recorder's commands and a notification's answers, noted in order as "toggle", "open 42", "allow app".
extension Sent: RecorderControls, NotificationAnswers {
    func perform(_ action: RecordingAction) throws(RecordingError) -> CommandOutcome {
        note(action.rawValue)
        return CommandOutcome()
    }

    func perform(_ action: RecordingAction, whileRunning recording: RecordingID) async throws(RecordingError) -> CommandOutcome? {
        try perform(action)
    }

    var snapshot: RecorderSnapshot { RecorderSnapshot(state: .idle, elapsed: .zero, timerAnchor: nil, recording: nil) }

    func open(_ recording: RecordingID) { note("open \(recording.rawValue)") }
    func answer(app: String, allowed: Bool) { note("\(allowed ? "allow" : "deny") \(app)") }
}

/// Counts calls (of a clock).
final class Counter: Sendable {
    private let count = Mutex(0)
    func next() -> Int {
        count.withLock { count in
            defer { count += 1 }
            return count
        }
    }
}

/// The executor the notifier runs on, standing in for the bus's.
actor TestIsolation {}
