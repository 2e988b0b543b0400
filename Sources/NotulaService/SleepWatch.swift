import DBus
import Recording

/// Pauses the recording when logind announces sleep (`PrepareForSleep(true)` on the system bus).
/// Waking (`PrepareForSleep(false)`) is no sign that the user wants to go on, so the recording
/// stays paused, its notification saying why. Without a system bus or logind nothing else changes.
///
/// It holds a logind delay lock, so that sleep waits (at most logind's `InhibitDelayMaxSec`) until
/// the recording is paused; the lock is released then and taken again on waking.
actor SleepWatch {
    private static let login: BusName = "org.freedesktop.login1"
    private static let manager = ObjectPath("/org/freedesktop/login1")!
    private static let managerInterface: InterfaceName = "org.freedesktop.login1.Manager"

    private let system: Bus
    private let recorder: Recorder
    /// The delay lock: logind waits for it to be closed.
    private var delayLock: FileDescriptor?

    private init(system: Bus, recorder: Recorder) {
        self.system = system
        self.recorder = recorder
    }

    /// Follows logind from now on; nil when there is no system bus to follow it on.
    static func start(pausing recorder: Recorder) async -> SleepWatch? {
        let system: Bus
        do { system = try await Bus.connect(.system) } catch {
            Log.info("No system bus (\(error.message)): sleep will not pause recordings")
            return nil
        }
        let announcements: AsyncStream<Message>
        do {
            announcements = try await system.signals(
                matching: MatchRule(
                    sender: login, path: manager, interface: managerInterface, member: "PrepareForSleep", signature: "b"))
        } catch {
            Log.warning("Cannot follow logind on the system bus (\(error.message)): sleep will not pause recordings")
            await system.close()
            return nil
        }
        let watch = SleepWatch(system: system, recorder: recorder)
        await watch.takeDelayLock()
        Task {
            for await announcement in announcements {
                guard let going = try? announcement.argument(0, as: Bool.self) else { continue }
                await watch.sleepAnnounced(going)
            }
        }
        return watch
    }

    func close() async { await system.close() }

    private func sleepAnnounced(_ going: Bool) async {
        guard going else { return await takeDelayLock() }
        Log.info("The computer is going to sleep: pausing the recording")
        await recorder.interrupt(.sleep)
        delayLock = nil
    }

    private func takeDelayLock() async {
        let inhibit = MethodCall(
            destination: Self.login, path: Self.manager, interface: Self.managerInterface, member: "Inhibit",
            arguments: [.string("sleep"), .string("Notula"), .string("Pausing the recording first"), .string("delay")])
        do {
            delayLock = try await system.call(inhibit).argument(0, as: FileDescriptor.self)
        } catch {
            Log.info("logind gave no delay lock (\(error.message)): sleep may come before the recording is paused")
        }
    }
}
