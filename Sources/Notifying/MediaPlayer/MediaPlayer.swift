import DBus
import Recording

/// The recording as an MPRIS media player, `org.mpris.MediaPlayer2.notula`, so that media keys, KDE's lock screen
/// and GNOME's media controls pause, resume and send it. The name is owned only while a recording is under way
/// (recording or paused), so that a music player has the media keys the rest of the time.
///
/// Shares the bus's executor (as the recorder does): a transition reports to it synchronously; owning and releasing
/// the name run on a chain of their own, in the order the transitions asked for them.
public actor MediaPlayer {
    public static let name: BusName = "org.mpris.MediaPlayer2.notula"
    static let path = ObjectPath("/org/mpris/MediaPlayer2")!

    let bus: Bus
    public nonisolated var unownedExecutor: UnownedSerialExecutor { bus.unownedExecutor }
    private let texts: NotificationTexts
    private let trackPath: @Sendable (RecordingID) -> ObjectPath
    private let log: @Sendable (String) -> Void
    /// What the player's methods run; set by `start`, before the player is exported.
    private var controls: PanelControls?
    /// The time recorded, now.
    private var elapsedNow: (@Sendable () -> Duration)?

    private(set) var track: MediaPlayerTrack
    private var recording: RecordingID?
    private let nameChanges: AsyncStream<Void>.Continuation
    private var ownsName = false

    /// - Parameter trackPath: the object path of a recording's memo, the track's `mpris:trackid`.
    public init(
        bus: Bus, texts: NotificationTexts, trackPath: @escaping @Sendable (RecordingID) -> ObjectPath,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.bus = bus
        self.texts = texts
        self.trackPath = trackPath
        self.log = log
        track = MediaPlayerTrack(state: .idle, elapsed: .zero, texts: texts)
        let (changes, continuation) = AsyncStream.makeStream(of: Void.self)
        nameChanges = continuation
        Task { for await _ in changes { await self.followRecording() } }
    }

    /// Exports the player's object; its name follows the recording from now on.
    /// - Parameter elapsed: the time recorded as of the call, for `Position`.
    public func start(_ controls: PanelControls, elapsed: @escaping @Sendable () -> Duration) async {
        self.controls = controls
        elapsedNow = elapsed
        await bus.export(Self.path, interfaces: [MediaPlayerInterfaces.root(), MediaPlayerInterfaces.player(self)])
    }

    func perform(_ action: RecordingAction) throws(BusError) { try controls?.perform(action) }

    func position() -> Duration { elapsedNow?() ?? .zero }

    var metadata: Value {
        var entries = [DictionaryEntry(key: .string("xesam:title"), value: .variant(.string(track.title)))]
        // No track while idle: the specification's own path for that.
        let id = recording.map(trackPath) ?? ObjectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack")!
        entries.insert(DictionaryEntry(key: .string("mpris:trackid"), value: .variant(.objectPath(id))), at: 0)
        return .dictionary(key: "s", value: "v", entries)
    }

    // MARK: Reports

    /// What the recorder reports to: each transition, shown at once.
    public nonisolated var reporter: PanelReporter { PanelReporter { snapshot in self.assumeIsolated { $0.show(snapshot) } } }

    private func show(_ snapshot: RecorderSnapshot) {
        recording = snapshot.recording
        track = MediaPlayerTrack(state: snapshot.state, elapsed: snapshot.elapsed, texts: texts)
        bus.assumeIsolated {
            $0.emitPropertiesChanged(
                path: Self.path, interface: MediaPlayerInterfaces.playerInterface, names: ["PlaybackStatus", "Metadata"])
        }
        nameChanges.yield()
    }

    /// Owns the name while a recording is under way, and releases it otherwise.
    private func followRecording() async {
        let wanted = track.playbackStatus != .stopped
        guard wanted != ownsName else { return }
        ownsName = wanted
        do throws(BusError) {
            if wanted { _ = try await bus.requestName(Self.name) } else { try await bus.releaseName(Self.name) }
        } catch {
            log("Cannot \(wanted ? "own" : "release") \(Self.name): \(error.message)")
        }
    }
}
