import Recording
import Synchronization

/// What each connection's last `Stop` ended, so that the same Stop sent twice answers twice the
/// same and never ends a recording someone else began in between. Any other recorder call from
/// the connection ends its repeat.
final class RepeatedStops: Sendable {
    /// A Stop that found no recording is remembered too: its repeat stops nothing either.
    private let lastStop = Mutex<[String: CommandOutcome]>([:])
    /// Connections remembered at most: one is forgotten to make room, so a flood of clients stays small.
    private static let mostConnections = 256

    /// What `caller`'s previous Stop ended, and its release, when this Stop repeats it; nil otherwise.
    func repeated(by caller: String) -> CommandOutcome? {
        lastStop.withLock { $0[caller] }
    }

    func note(_ stopped: CommandOutcome, by caller: String) {
        lastStop.withLock { lastStop in
            if lastStop[caller] == nil, lastStop.count >= Self.mostConnections { lastStop.remove(at: lastStop.startIndex) }
            lastStop[caller] = stopped
        }
    }

    /// `caller` made another call: its next Stop is a Stop of its own.
    func forget(_ caller: String?) {
        guard let caller else { return }
        _ = lastStop.withLock { $0.removeValue(forKey: caller) }
    }
}
