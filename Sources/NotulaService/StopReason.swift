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

    /// Waits for the first of SIGTERM/SIGINT (heard since `signals` began), the loss of the name, or the loss of the bus.
    static func first(on bus: Bus, losses: AsyncStream<Message>, signals: StopSignals) async -> StopReason {
        let reason = signals.reason
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
            signals.cancel()
            nameLost.cancel()
            busLost.cancel()
        }
        for await first in signals.reasons { return first }
        return .busLost
    }
}

/// SIGTERM and SIGINT, heard from the service's first moment: one sent while it starts (a session that ends at once,
/// a test that stops it as soon as it answers) stops it once it has started, rather than killing it or being lost.
struct StopSignals {
    let reasons: AsyncStream<StopReason>
    let reason: AsyncStream<StopReason>.Continuation
    private let sources: [any DispatchSourceSignal]

    init() {
        let (reasons, reason) = AsyncStream.makeStream(of: StopReason.self)
        self.reasons = reasons
        self.reason = reason
        sources = [SIGTERM, SIGINT].map { number in
            Glibc.signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { reason.yield(.signal(number)) }
            source.resume()
            return source
        }
    }

    func cancel() { sources.forEach { $0.cancel() } }
}
