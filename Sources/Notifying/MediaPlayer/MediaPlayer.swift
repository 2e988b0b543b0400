import DBus
import NotulaContract
import Recording

/// The recording, or the memo playing, as an MPRIS media player, `org.mpris.MediaPlayer2.notula`, so that media keys,
/// KDE's lock screen and GNOME's media controls pause, resume and send the one, and pause, seek and stop the other.
/// A recording under way (recording or paused) comes first. The name is owned only while one of them is under way,
/// so that a music player has the media keys the rest of the time.
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
    /// What the player's methods run, and where the recording's `Position` is read.
    private let controls: any RecorderControls
    /// What the player's methods run while a memo is its track.
    private let memoControls: MemoPlaybackControls

    private var track: MediaPlayerTrack
    private var recording: RecordingID?
    /// The memo playing, if any.
    private var memo: MemoPlaybackSnapshot?
    private let nameChanges: AsyncStream<Void>.Continuation
    private var ownsName = false

    /// - Parameter trackPath: the object path of a recording's memo, the track's `mpris:trackid`.
    public init(
        bus: Bus, texts: NotificationTexts, controls: any RecorderControls, memoPlayback: MemoPlaybackControls,
        trackPath: @escaping @Sendable (RecordingID) -> ObjectPath, log: @escaping @Sendable (String) -> Void
    ) {
        self.bus = bus
        self.texts = texts
        self.controls = controls
        memoControls = memoPlayback
        self.trackPath = trackPath
        self.log = log
        track = MediaPlayerTrack(state: .idle, elapsed: .zero, texts: texts)
        let (changes, continuation) = AsyncStream.makeStream(of: Void.self)
        nameChanges = continuation
        Task { for await _ in changes { await self.followPlayback() } }
    }

    /// Exports the player's object; its name follows the recording and the memo playing from now on.
    public func start() async {
        await bus.export(Self.path, interfaces: [MediaPlayerInterfaces.root(), MediaPlayerInterfaces.player(self)])
    }

    /// The memo that is the player's track: the one playing, unless a recording is under way.
    var memoShown: MemoPlaybackSnapshot? { track.playbackStatus == .stopped ? memo : nil }

    var playbackStatus: MediaPlayerTrack.PlaybackStatus {
        guard let memo = memoShown else { return track.playbackStatus }
        return memo.paused ? .paused : .playing
    }

    /// Play, Pause, PlayPause and Stop: the memo's playback while a memo is the track, the recorder's otherwise.
    func press(_ button: MediaButton) throws(BusError) {
        guard let memo = memoShown else {
            // Nobody waits for a media key: a failure is reported; a refusal is the method's error.
            do throws(RecordingError) { try controls.perform(button.recordingAction) } catch { throw BusError(error) }
            return
        }
        switch button {
        case .playPause: memoControls.hold(!memo.paused)
        case .play: memoControls.hold(false)
        case .pause: memoControls.hold(true)
        case .stop: memoControls.stop()
        }
    }

    /// `Seek`: relative to where the memo is; a recording cannot seek, as `CanSeek` says.
    func seek(by offset: Int64) {
        guard let memo = memoShown else { return }
        go(to: memo.seekTarget(from: memoControls.position().microseconds, by: offset))
    }

    /// `SetPosition`: ignored for a track that is no longer the one playing, as the specification has it.
    func setPosition(_ position: Int64, of trackPath: ObjectPath) {
        guard let memo = memoShown, trackPath == memo.trackPath, let target = memo.setTarget(position) else { return }
        go(to: target)
    }

    private func go(to microseconds: Int64) {
        memoControls.seek(.microseconds(microseconds))
        bus.assumeIsolated {
            try? $0.emit(
                path: Self.path, interface: MediaPlayerInterfaces.playerInterface, member: "Seeked", arguments: [.int64(microseconds)])
        }
    }

    func position() -> Duration {
        memoShown != nil ? memoControls.position() : controls.snapshot.elapsed
    }

    var metadata: Value {
        if let memo = memoShown {
            return Self.metadata(trackID: memo.trackPath, title: memo.title, length: memo.length)
        }
        // No track while idle: the specification's own path for that.
        let id = recording.map(trackPath) ?? ObjectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack")!
        return Self.metadata(trackID: id, title: track.title, length: nil)
    }

    private static func metadata(trackID: ObjectPath, title: String, length: Duration?) -> Value {
        let entries: [(String, Value)] =
            [("mpris:trackid", .objectPath(trackID))] + (length.map { [("mpris:length", .int64($0.microseconds))] } ?? [])
            + [("xesam:title", .string(title))]
        return .dictionary(key: "s", value: "v", entries.map { DictionaryEntry(key: .string($0.0), value: .variant($0.1)) })
    }

    // MARK: Reports

    /// What the recorder reports to: each transition, shown at once.
    public nonisolated var reporter: PanelReporter { PanelReporter { snapshot in self.assumeIsolated { $0.show(snapshot) } } }

    private func show(_ snapshot: RecorderSnapshot) {
        recording = snapshot.recording
        track = MediaPlayerTrack(state: snapshot.state, elapsed: snapshot.elapsed, texts: texts)
        trackChanged()
    }

    /// What the service reports to whenever the memo playing changes, is held or goes on (nil: none plays).
    /// Called synchronously, on the bus's executor, which the player shares.
    public nonisolated func memoPlaybackChanged(_ playing: MemoPlaybackSnapshot?) {
        assumeIsolated {
            $0.memo = playing
            $0.trackChanged()
        }
    }

    private func trackChanged() {
        bus.assumeIsolated {
            $0.emitPropertiesChanged(
                path: Self.path, interface: MediaPlayerInterfaces.playerInterface, names: ["PlaybackStatus", "Metadata", "CanSeek"])
        }
        nameChanges.yield()
    }

    /// Owns the name while a recording or a memo's playback is under way, and releases it otherwise.
    private func followPlayback() async {
        let wanted = playbackStatus != .stopped
        guard wanted != ownsName else { return }
        ownsName = wanted
        do throws(BusError) {
            if wanted { _ = try await bus.requestName(Self.name) } else { try await bus.releaseName(Self.name) }
        } catch {
            log("Cannot \(wanted ? "own" : "release") \(Self.name): \(error.message)")
        }
    }
}
