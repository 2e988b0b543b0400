import DBus
import NotulaContract
import Recording

/// Owning `org.notula.Notula1`. Every instance lets a newer one take the name over (`notulad
/// --replace`, for upgrades) and stops when it loses it.
enum NameOwnership {
    /// How long a replaced instance may take to save its recording and leave; an older notulad that
    /// ignores the loss of its name is not waited for longer.
    static let departureDeadline = Duration.seconds(30)

    /// The loss of the name to another instance; subscribe before claiming, so that no loss is missed.
    static func losses(on bus: Bus) async throws(BusError) -> AsyncStream<Message> {
        try await bus.signals(
            matching: MatchRule(
                sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameLost", arg0: NotulaBus.name.rawValue))
    }

    /// Claims the name once the objects are exported (an activated service is called the moment it owns it).
    /// - Returns: nil when the name is ours, else the exit status (already logged): 2 when another instance
    ///   owns it, 1 when the bus refused.
    static func claim(on bus: Bus) async -> Int32? {
        do {
            let result = try await bus.requestName(NotulaBus.name, allowReplacement: true)
            guard result == .primaryOwner || result == .alreadyOwner else {
                Log.error(await ownerDescription(on: bus) + "; `notulad --replace` takes over from it")
                return 2
            }
            return nil
        } catch {
            Log.error("Cannot own \(NotulaBus.name): \(error.message)")
            return 1
        }
    }

    /// Takes the name over from the instance owning it, and returns once that instance has left the bus,
    /// so that the recording it saves on its way out is complete before this one opens the library.
    /// - Returns: `.claimed` when the name is ours; `.nobodyOwnsIt` when there was nothing to take over
    ///   (claim it with `claim(on:)` after the export); `.failed` with the exit status, already logged.
    static func takeOver(on bus: Bus) async -> TakeOver {
        do {
            let departures = try await bus.signals(
                matching: MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged"))
            guard let previous = try await bus.owner(of: NotulaBus.name) else { return .nobodyOwnsIt }
            let description = await ownerDescription(on: bus)
            let result = try await bus.requestName(NotulaBus.name, allowReplacement: true, replaceExisting: true)
            guard result == .primaryOwner || result == .alreadyOwner else {
                Log.error(description + ", and it does not let itself be replaced: stop it first")
                return .failed(2)
            }
            Log.info("Took \(NotulaBus.name) over from \(previous); waiting for it to keep its recording and exit")
            if await !departed(previous, from: departures) {
                Log.warning("\(previous) has not left the bus after \(departureDeadline); going on without it")
            }
            return .claimed
        } catch {
            Log.error("Cannot take \(NotulaBus.name) over: \(error.message)")
            return .failed(1)
        }
    }

    enum TakeOver: Equatable {
        case claimed, nobodyOwnsIt
        case failed(Int32)
    }

    /// Whether the connection `uniqueName` left the bus before the deadline.
    private static func departed(_ uniqueName: String, from changes: AsyncStream<Message>) async -> Bool {
        let (outcomes, outcome) = AsyncStream.makeStream(of: Bool.self)
        let watch = Task {
            for await change in changes
            where (try? change.argument(0, as: String.self)) == uniqueName && (try? change.argument(2, as: String.self)) == "" {
                outcome.yield(true)
                return
            }
        }
        let deadline = Task {
            try? await Task.sleep(for: departureDeadline)
            outcome.yield(false)
        }
        defer {
            watch.cancel()
            deadline.cancel()
        }
        for await departed in outcomes { return departed }
        return false
    }

    /// Gives the name up at a clean stop, so that the next activation need not wait for this process to end.
    static func release(on bus: Bus) async {
        do throws(BusError) { try await bus.releaseName(NotulaBus.name) } catch {
            Log.warning("Cannot release \(NotulaBus.name): \(error.message)")
        }
    }

    static func ownerDescription(on bus: Bus) async -> String {
        guard let owner = try? await bus.owner(of: NotulaBus.name) else {
            return "\(NotulaBus.name) is already owned by another connection"
        }
        let pid = (try? await bus.processID(of: owner)).map { " (pid \($0))" } ?? ""
        return "\(NotulaBus.name) is already owned by \(owner)\(pid): another notulad is running"
    }
}
