import DBus
import Recording
import Synchronization

/// `pauseMedia`: the MPRIS players playing when a recording starts are paused, and played again when it ends (sent,
/// discarded or failed) — only those, only if still paused, and only if the same program still owns the name. A pause
/// and resume of the recording changes nothing: a player the user plays meanwhile is left playing.
///
/// The players are peers: each call is bounded in time, the players in number, and one that fails is skipped.
public final class MediaPause: Sendable {
    static let playerPrefix = "org.mpris.MediaPlayer2."
    static let playerPath = ObjectPath("/org/mpris/MediaPlayer2")!
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    /// Players looked at when a recording starts.
    static let mostPlayers = 32
    /// A player slower than this to answer is left as it is.
    static let patience: Duration = .seconds(2)

    private struct State {
        var capturing = false
        /// The players paused for the recording: their name and the connection that owned it then.
        var paused: [(name: BusName, owner: String)] = []
        /// The last job: pausing and playing again happen in the order the recording changed.
        var last: Task<Void, Never>?
    }

    private let bus: Bus
    private let own: BusName
    private let log: @Sendable (String) -> Void
    private let state = Mutex(State())

    /// - Parameter own: Notula's own player, never paused.
    public init(bus: Bus, own: BusName, log: @escaping @Sendable (String) -> Void) {
        self.bus = bus
        self.own = own
        self.log = log
    }

    public var reporter: PanelReporter { PanelReporter { [self] in heard($0) } }

    private func heard(_ snapshot: RecorderSnapshot) {
        let capturing = snapshot.state.isCapturing
        state.withLock { state in
            guard capturing != state.capturing else { return }
            state.capturing = capturing
            let previous = state.last
            state.last = Task {
                await previous?.value
                if capturing { await self.pausePlaying() } else { await self.playPaused() }
            }
        }
    }

    private func pausePlaying() async {
        var paused: [(name: BusName, owner: String)] = []
        for name in await players() {
            guard let owner = try? await bus.owner(of: name), let status = await status(of: owner), status.playing, status.canPause
            else { continue }
            guard await call("Pause", on: owner) else { continue }
            log("Paused \(name) while recording")
            paused.append((name, owner))
        }
        state.withLock { $0.paused = paused }
    }

    private func playPaused() async {
        let paused = state.withLock { state in
            defer { state.paused = [] }
            return state.paused
        }
        for (name, owner) in paused {
            // Gone, owned by another program now, or played (or stopped) by the user meanwhile: left alone.
            guard (try? await bus.owner(of: name)) == owner, let status = await status(of: owner), status.paused else { continue }
            if await call("Play", on: owner) { log("Played \(name) again after the recording") }
        }
    }

    /// The players on the bus but Notula's own, in name order.
    private func players() async -> [BusName] {
        let reply = try? await bus.call(
            MethodCall(
                destination: "org.freedesktop.DBus", path: ObjectPath("/org/freedesktop/DBus")!, interface: "org.freedesktop.DBus",
                member: "ListNames"),
            timeout: Self.patience)
        let names = (try? reply?.argument(0, as: [String].self)) ?? []
        return names.filter { $0.hasPrefix(Self.playerPrefix) && $0 != own.rawValue }.sorted().prefix(Self.mostPlayers)
            .compactMap(BusName.init)
    }

    private struct Status {
        let playing: Bool
        let paused: Bool
        let canPause: Bool
    }

    private func status(of owner: String) async -> Status? {
        guard let destination = BusName(owner),
            let reply = try? await bus.call(
                MethodCall(
                    destination: destination, path: Self.playerPath, interface: "org.freedesktop.DBus.Properties", member: "GetAll",
                    arguments: [.string(Self.playerInterface)]),
                timeout: Self.patience),
            case .dictionary(_, _, let entries)? = reply.body.first
        else { return nil }
        var playback: String?
        var canPause = false
        for entry in entries {
            switch (entry.key, entry.value) {
            case (.string("PlaybackStatus"), .variant(.string(let status))): playback = status
            case (.string("CanPause"), .variant(.boolean(let can))): canPause = can
            default: continue
            }
        }
        return Status(playing: playback == "Playing", paused: playback == "Paused", canPause: canPause)
    }

    private func call(_ method: String, on owner: String) async -> Bool {
        guard let destination = BusName(owner), let member = MemberName(method) else { return false }
        do {
            _ = try await bus.call(
                MethodCall(
                    destination: destination, path: Self.playerPath, interface: InterfaceName(Self.playerInterface)!, member: member),
                timeout: Self.patience)
            return true
        } catch {
            log("\(method) on a media player failed: \(error.message)")
            return false
        }
    }
}
