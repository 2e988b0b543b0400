import DBus
import Recording

/// Pauses the recording when logind announces sleep (`PrepareForSleep(true)` on the system bus).
/// Waking (`PrepareForSleep(false)`) is no sign that the user wants to go on, so the recording
/// stays paused, its notification saying why. Without a system bus or logind nothing else changes.
enum SleepWatch {
    private static let login: BusName = "org.freedesktop.login1"

    /// Follows logind from now on; returns the system bus connection to keep for as long as the
    /// service runs, or nil when there is none.
    static func start(pausing recorder: Recorder) async -> Bus? {
        let system: Bus
        do { system = try await Bus.connect(.system) } catch {
            Log.info("No system bus (\(error.message)): sleep will not pause recordings")
            return nil
        }
        do {
            let announcements = try await system.signals(
                matching: MatchRule(
                    sender: login, path: ObjectPath("/org/freedesktop/login1")!, interface: "org.freedesktop.login1.Manager",
                    member: "PrepareForSleep"))
            Task {
                for await announcement in announcements where (try? announcement.argument(0, as: Bool.self)) == true {
                    Log.info("The computer is going to sleep: pausing the recording")
                    await recorder.interrupt(.sleep)
                }
            }
            return system
        } catch {
            Log.warning("Cannot follow logind on the system bus (\(error.message)): sleep will not pause recordings")
            await system.close()
            return nil
        }
    }
}
