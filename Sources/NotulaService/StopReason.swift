import DBus
import Dispatch
import NotulaContract

#if canImport(Glibc)
    import Glibc
#endif

/// Why the service stops, and the exit status each one gives.
enum StopReason: Sendable, CustomStringConvertible {
    case signal(Int32)
    /// Another instance took the name over (`notulad --replace`).
    case replaced
    case busLost

    var description: String {
        switch self {
        case .signal(let number): "Stopping on signal \(number)"
        case .replaced: "Another notulad took \(NotulaBus.name) over; stopping"
        case .busLost: "Lost the connection to the session bus"
        }
    }

    var exitStatus: Int32 {
        switch self {
        case .signal, .replaced: 0
        case .busLost: 1
        }
    }

    /// Waits for the first of SIGTERM/SIGINT, the loss of the name, or the loss of the bus.
    static func first(on bus: Bus, losses: AsyncStream<Message>) async -> StopReason {
        let (reasons, reason) = AsyncStream.makeStream(of: StopReason.self)
        let signalSources = [SIGTERM, SIGINT].map { number in
            Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { reason.yield(.signal(number)) }
            source.resume()
            return source
        }
        let nameLost = Task {
            for await _ in losses {
                reason.yield(.replaced)
                return
            }
        }
        let busLost = Task {
            await bus.waitUntilDisconnected()
            reason.yield(.busLost)
        }
        defer {
            signalSources.forEach { $0.cancel() }
            nameLost.cancel()
            busLost.cancel()
        }
        for await first in reasons { return first }
        return .busLost
    }
}
