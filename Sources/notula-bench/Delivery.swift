import Delivering
import Foundation
import NotulaTestSupport
import Synchronization

/// How long dictated text takes to reach a real client through each way of delivering it: from the call to the
/// moment the client holds all of it, against the same tool run directly by the bench (what our delivery adds).
///
/// Each host starts once: foot in a headless sway (wtype, wl-copy), xterm on Xvfb (xdotool, xclip), a GTK4 entry on
/// GNOME Shell 43 (the RemoteDesktop portal), a Qt entry on KWin 5.27 (the KDE portal, wl-copy), a GTK4 entry on
/// GNOME Shell 48 (the portal's clipboard). A method whose host or programs are missing gets a line saying so.
enum Delivery {
    /// One way of delivering into one client, measured against its peer.
    struct Method {
        let name: String
        let target: any TextTarget
        let client: Client
        /// What the ratio is taken against: the tool run directly, or a floor computed from the text.
        let peer: Peer
        let sizes: [Int]
        /// A copy takes milliseconds: more rounds, as they cost nothing.
        var isCheap = false
        /// How the dictation-like text is written for this method: the portal pastes only a text off the layout.
        var spelling: @Sendable (String) -> String = { $0 }

        func rounds(of size: Int) -> Int { isCheap ? 9 : size >= 2_000 ? 1 : 3 }
    }

    /// Where the text arrives, read as a user would see it.
    struct Client {
        let read: () -> String
        /// A terminal or an entry holds every text typed so far; a clipboard only the last.
        let accumulates: Bool
    }

    enum Peer {
        /// The tool started as a plain process, given the text.
        case direct(label: String, start: (String) throws -> pid_t)
        /// A lower bound for the time, not measured: the pauses the method makes by design.
        case floor(label: String, of: (String) -> Duration)

        var label: String {
            switch self {
            case .direct(let label, _), .floor(let label, _): label
            }
        }
    }

    struct Row {
        let method: String
        let peer: String
        let characters: Int
        let rounds: Int
        let ours: Duration
        let peerTime: Duration?
        let floor: Duration?
    }

    static let pollInterval = Duration.milliseconds(2)

    /// Measures every method available here; `quick`: 20 and 200 characters only.
    static func run(quick: Bool) async -> String {
        let sizes = quick ? [20, 200] : [20, 200, 2_000]
        var rows: [Row] = []
        var missing: [String] = []
        await measureSway(sizes: sizes, into: &rows, missing: &missing)
        await measureXvfb(sizes: sizes, into: &rows, missing: &missing)
        await measureGNOME(sizes: sizes, into: &rows, missing: &missing)
        await measurePlasma(sizes: sizes, into: &rows, missing: &missing)
        return report(rows, missing: missing, quick: quick)
    }

    // MARK: Measuring

    /// Each size's rounds, ours and the peer's interleaved (who goes first alternates), after a round of each that
    /// is not counted: the first keys of a client, the first run of a program.
    static func measure(_ method: Method, warmUp: Bool = true) async throws -> [Row] {
        var seed = 0
        func nextText(_ count: Int) -> String {
            seed += 1
            return method.spelling(dictation(count, seed: seed))
        }
        if warmUp {
            _ = try await arrival(of: nextText(20), in: method.client, deliveredTo: method.target)
            if case .direct(_, let start) = method.peer {
                _ = try await arrival(of: nextText(20), in: method.client, byStarting: start)
            }
        }
        var rows: [Row] = []
        for size in method.sizes {
            let rounds = method.rounds(of: size)
            progress("delivery: \(method.name), \(size) characters, \(rounds) rounds")
            var ours: [Duration] = []
            var peers: [Duration] = []
            var floors: [Duration] = []
            for round in 0..<rounds {
                let peerFirst = round % 2 == 1
                if peerFirst, case .direct(_, let start) = method.peer {
                    peers.append(try await arrival(of: nextText(size), in: method.client, byStarting: start))
                }
                let text = nextText(size)
                ours.append(try await arrival(of: text, in: method.client, deliveredTo: method.target))
                if case .floor(_, let floor) = method.peer { floors.append(floor(text)) }
                if !peerFirst, case .direct(_, let start) = method.peer {
                    peers.append(try await arrival(of: nextText(size), in: method.client, byStarting: start))
                }
            }
            rows.append(
                Row(
                    method: method.name, peer: method.peer.label, characters: size, rounds: rounds, ours: Latencies(ours).median,
                    peerTime: peers.isEmpty ? nil : Latencies(peers).median, floor: floors.isEmpty ? nil : Latencies(floors).median))
        }
        return rows
    }

    /// The time from starting the tool directly to the moment the client holds all of `text`; then waits for the
    /// program to end, so that the next round starts alone.
    static func arrival(of text: String, in client: Client, byStarting start: (String) throws -> pid_t) async throws -> Duration {
        var processID: pid_t = 0
        let time = try await arrival(of: text, in: client, startedBy: { processID = try start($0) })
        while !hasEnded(processID) { try await Task.sleep(for: pollInterval) }
        return time
    }

    /// The time from the call to `target.deliver` to the moment the client holds all of `text`.
    static func arrival(of text: String, in client: Client, deliveredTo target: any TextTarget) async throws -> Duration {
        let failure = Failure()
        var delivery: Task<Void, Never>?
        defer { delivery?.cancel() }
        let time = try await arrival(
            of: text, in: client,
            startedBy: { text in
                delivery = Task {
                    do { try await target.deliver(text) } catch { failure.message.withLock { $0 = "\(error)" } }
                }
            }, failed: { failure.message.withLock { $0 } })
        await delivery?.value
        if let message = failure.message.withLock({ $0 }) { throw DeliveryFailed(message: message) }
        return time
    }

    /// The time from `start`'s call to the moment the client holds all of `text`, its content read every 2 ms.
    /// - Parameter failed: why the delivery stopped, once it has.
    static func arrival(
        of text: String, in client: Client, startedBy start: (String) throws -> Void, failed: () -> String? = { nil }
    ) async throws -> Duration {
        let expected = (client.accumulates ? client.read() : "") + text
        let clock = ContinuousClock()
        let began = clock.now
        try start(text)
        let bound = Duration.seconds(10) + .milliseconds(60) * text.count
        while client.read() != expected {
            if let message = failed() { throw DeliveryFailed(message: message) }
            guard clock.now - began < bound else {
                throw DeliveryFailed(message: "\(text.count) characters did not arrive whole within \(bound)")
            }
            try await Task.sleep(for: pollInterval)
        }
        return clock.now - began
    }

    /// Why a delivery running in a task of its own failed, read by the loop that waits for its text.
    private final class Failure: Sendable {
        let message = Mutex<String?>(nil)
    }

    struct DeliveryFailed: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
