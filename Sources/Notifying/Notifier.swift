import DBus
import Recording

/// Reports the recording flow and the model downloads as desktop notifications, and sends the
/// live notification's buttons back into the recorder, the other clicks to their `NotificationAnswers`.
///
/// Runs on the executor of `isolation` (the bus's, which the recorder shares), so that a
/// transition reports to it synchronously. The server is called from a chain of its own, one
/// call after the other in the order reported: a slow, failing or missing server never fails or
/// delays a transition — notifications are an extra surface, never a required one.
public actor Notifier {
    private enum Job: Sendable {
        /// Follow the server's signals and its owner.
        case followServer
        /// A server took the name: ask what it can do, and show it the live notification.
        case serverAppeared
        /// Bring the live notification in line with the recording, as of now.
        case syncLive
        /// A banner, made for the server's capabilities as of its turn.
        case banner(@Sendable (Set<String>) -> DesktopNotification?, opens: RecordingID?)
        /// Ask the user whether the app may hear the recordings.
        case permissionRequest(app: String)
        /// Take a notification off the screen.
        case close(UInt32)
        case settle(CheckedContinuation<Void, Never>)
    }

    private let isolation: any Actor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { isolation.unownedExecutor }
    private let server: any NotificationServer
    private let texts: NotificationTexts
    private let clock: @Sendable () -> ClockTime
    private let log: @Sendable (String) -> Void
    private let jobs: AsyncStream<Job>.Continuation
    /// What the live notification's buttons run.
    private let controls: any RecorderControls
    /// Where a result's click and an app's request's answer go.
    private let answers: any NotificationAnswers

    /// The server's capabilities; nil while there is no server.
    private var capabilities: Set<String>?
    /// Counts servers, so that an id a server gave is not kept once another took its place.
    private var serverGeneration = 0
    private var reportedFailure = false
    /// The recording the live notification shows; nil when idle.
    private var live: LiveRecording?
    private var liveID: UInt32?
    private var shownLive: DesktopNotification?
    private var liveSyncQueued = false
    /// The programs that also hear the recordings, named in the live notification.
    private var heardBy: [String] = []
    /// Results on screen, by id: what their click opens.
    private var results: [UInt32: RecordingID] = [:]
    /// Apps whose request is queued or on screen: each is asked once at a time, however often it calls.
    private var asking: Set<String> = []
    /// Requests on screen, by id: the app each asks for.
    private var requests: [UInt32: String] = [:]
    /// Whether a Notify call awaits its id: a button pressed on that notification can reach us before the id does.
    private var notifying = false
    /// Buttons pressed on ids not known yet, kept while a Notify call awaits its id (bounded: KDE sends everyone's).
    private var earlyActions: [(id: UInt32, key: String)] = []
    private static let earlyActionLimit = 16

    /// Follows the server (its signals and its owner) and posts from the first turn of its chain.
    /// - Parameters:
    ///   - clock: the time of day a recording starts at.
    ///   - log: one line a person reads (a missing server, a failing one).
    public init(
        isolation: any Actor, server: any NotificationServer, texts: NotificationTexts, controls: any RecorderControls,
        answers: any NotificationAnswers, clock: @escaping @Sendable () -> ClockTime = ClockTime.now,
        log: @escaping @Sendable (String) -> Void
    ) {
        self.isolation = isolation
        self.server = server
        self.texts = texts
        self.controls = controls
        self.answers = answers
        self.clock = clock
        self.log = log
        let (stream, continuation) = AsyncStream.makeStream(of: Job.self)
        jobs = continuation
        jobs.yield(.followServer)
        jobs.yield(.serverAppeared)
        Task { await self.run(stream) }
    }

    private func followServer() async {
        do throws(BusError) {
            let events = try await server.events()
            Task { for await event in events { self.handle(event) } }
        } catch {
            log("Cannot follow the notification server: \(error.message)")
        }
    }

    /// Returns when everything reported so far has been sent to the server.
    public func settle() async {
        await withCheckedContinuation { jobs.yield(.settle($0)) }
    }

    // MARK: Reports

    /// The recorder's state changed: the live notification follows at once, posted at the start, closed at the end.
    public func recordingChanged(_ snapshot: RecorderSnapshot) {
        if snapshot.state == .idle {
            live = nil
        } else {
            let start = live.flatMap { $0.recording == snapshot.recording ? $0.start : nil } ?? clock()
            live = LiveRecording(
                recording: snapshot.recording, state: snapshot.state, pauseReason: snapshot.pauseReason, elapsed: snapshot.elapsed,
                start: start, heardBy: heardBy)
        }
        queueLiveSync()
    }

    /// The programs that listen changed: the live notification names them.
    public func heard(by programs: [String]) {
        heardBy = programs
        live?.heardBy = programs
        queueLiveSync()
    }

    /// The service is stopping: the live notification is closed, as its buttons would reach nobody.
    public func withdrawLive() {
        live = nil
        queueLiveSync()
    }

    private func queueLiveSync() {
        guard !liveSyncQueued else { return }
        liveSyncQueued = true
        jobs.yield(.syncLive)
    }

    /// A recording became a memo with `text`.
    public func transcribed(_ recording: RecordingID, text: String) {
        let texts = self.texts
        jobs.yield(.banner({ .transcribed(text, texts: texts, capabilities: $0) }, opens: recording))
    }

    /// A failure no caller is waiting for; `locale` is the one recordings are transcribed in, for the next step.
    public func failed(_ error: RecordingError, locale: String) {
        let texts = self.texts
        jobs.yield(.banner({ _ in .failure(error, locale: locale, texts: texts) }, opens: nil))
    }

    /// `recording`'s text did not reach where the user types, for `reason`, which says what to do next; the
    /// banner opens the memo's text.
    public func notDelivered(_ recording: RecordingID, reason: String) {
        let texts = self.texts
        jobs.yield(.banner({ _ in .banner(.error, texts.notDelivered, reason) }, opens: recording))
    }

    /// The spoken line breaks of `recording`'s text were typed as spaces: in `terminal`, or (nil) a window that could
    /// not be told.
    public func newLinesAsSpaces(_ recording: RecordingID, terminal: String?) {
        let texts = self.texts
        let body = terminal.map(texts.newLinesInTerminal) ?? texts.newLinesInUnknownWindow
        jobs.yield(.banner({ _ in .banner(.info, texts.newLinesAsSpaces, body) }, opens: recording))
    }

    /// The recording goes on from `source`, another than it started from.
    public func inputMoved(to source: String) {
        let texts = self.texts
        jobs.yield(.banner({ _ in .banner(.warning, texts.inputMoved(source), texts.inputMovedBody) }, opens: nil))
    }

    /// The sandboxed `app` asked to hear the recordings before the user decided: a notification with Allow and
    /// Deny asks, unless one for it is already queued or on screen.
    public func askPermission(for app: String) {
        guard asking.insert(app).inserted else { return }
        jobs.yield(.permissionRequest(app: app))
    }

    /// The user decided for `app` elsewhere (`notula permissions`): its request on screen goes, as its buttons would
    /// now undo that decision.
    public func withdrawRequest(for app: String) {
        guard let id = requests.first(where: { $0.value == app })?.key else { return }
        requests[id] = nil
        asking.remove(app)
        jobs.yield(.close(id))
    }

    public func downloadChanged(_ event: DownloadEvent) {
        let texts = self.texts
        jobs.yield(.banner({ _ in .download(event, texts: texts) }, opens: nil))
    }

    // MARK: What the server says

    public func handle(_ event: NotificationServerEvent) {
        switch event {
        case .appeared:
            forgetServer()
            jobs.yield(.serverAppeared)
        case .vanished:
            if capabilities != nil { log("The notification server left the session bus: nothing is posted until one returns") }
            forgetServer()
        case .actionInvoked(let id, let key):
            // KDE sends every client's actions to everyone: only our own ids count.
            if let app = requests[id] {
                guard let allowed = DesktopNotification.permissionAnswer(key) else { return }
                requests[id] = nil
                asking.remove(app)
                answers.answer(app: app, allowed: allowed)
            } else if id == liveID, let action = RecordingAction(rawValue: key), [.toggle, .process, .discard].contains(action) {
                do throws(RecordingError) { try controls.perform(action) } catch {
                    log("The notification's \(action.methodName) button: \(error.message)")
                }
            } else if key == DesktopNotification.defaultAction, let recording = results[id] {
                answers.open(recording)
            } else if notifying {
                earlyActions.append((id, key))
                if earlyActions.count > Self.earlyActionLimit { earlyActions.removeFirst() }
            }
        case .closed(let id, _):
            // Closed by the user (or expired): the recording goes on, and the next transition posts it again.
            if id == liveID {
                liveID = nil
                shownLive = nil
            }
            results[id] = nil
            // Dismissed unanswered: the app's next request asks again.
            if let app = requests.removeValue(forKey: id) { asking.remove(app) }
        }
    }

    private func forgetServer() {
        serverGeneration += 1
        capabilities = nil
        liveID = nil
        shownLive = nil
        results = [:]
        requests = [:]
        asking = []
    }

    // MARK: The chain of calls

    private func run(_ queued: AsyncStream<Job>) async {
        for await job in queued {
            switch job {
            case .followServer: await followServer()
            case .serverAppeared: await meetServer()
            case .syncLive: await syncLive()
            case .banner(let make, let opens): await post(make, opens: opens)
            case .permissionRequest(let app): await postRequest(for: app)
            case .close(let id):
                do throws(BusError) { try await server.close(id) } catch { failedToPost(error) }
            case .settle(let waiter): waiter.resume()
            }
        }
    }

    private func meetServer() async {
        let generation = serverGeneration
        do throws(BusError) {
            let found = try await server.capabilities()
            guard generation == serverGeneration else { return }
            capabilities = found
            reportedFailure = false
            log("Notifications go to the notification server (capabilities: \(found.sorted().joined(separator: ", ")))")
        } catch {
            log("No notification server on the session bus (\(error.message)): nothing is posted until one appears")
            return
        }
        await syncLive()
    }

    private func syncLive() async {
        liveSyncQueued = false
        guard let capabilities else { return }
        let generation = serverGeneration
        guard let live else {
            guard let id = liveID else { return }
            liveID = nil
            shownLive = nil
            do throws(BusError) { try await server.close(id) } catch { failedToPost(error) }
            return
        }
        let wanted = DesktopNotification.live(live, texts: texts, capabilities: capabilities).escaped(for: capabilities)
        guard wanted != shownLive || liveID == nil else { return }
        do throws(BusError) {
            try await notify(wanted, replacing: liveID ?? 0) { id in
                guard generation == serverGeneration else { return }
                liveID = id
                shownLive = wanted
            }
        } catch {
            failedToPost(error)
        }
    }

    private func post(_ make: @Sendable (Set<String>) -> DesktopNotification?, opens recording: RecordingID?) async {
        guard let capabilities, let notification = make(capabilities)?.escaped(for: capabilities) else { return }
        let generation = serverGeneration
        do throws(BusError) {
            try await notify(notification, replacing: 0) { id in
                if let recording, generation == serverGeneration, !notification.actions.isEmpty { results[id] = recording }
            }
        } catch {
            failedToPost(error)
        }
    }

    private func postRequest(for app: String) async {
        guard let capabilities else {
            asking.remove(app)
            return
        }
        let generation = serverGeneration
        let request = DesktopNotification.permissionRequest(app, texts: texts, capabilities: capabilities).escaped(for: capabilities)
        do throws(BusError) {
            try await notify(request, replacing: 0) { id in
                // A server that left meanwhile took the request with it, and `forgetServer` the app's turn.
                if generation == serverGeneration { requests[id] = app }
            }
        } catch {
            asking.remove(app)
            failedToPost(error)
        }
    }

    /// Posts `notification`; `file` keeps its id before a button pressed on it while the call was on its way counts.
    private func notify(
        _ notification: DesktopNotification, replacing id: UInt32, file: (UInt32) -> Void
    ) async throws(BusError) {
        notifying = true
        defer {
            notifying = false
            earlyActions = []
        }
        let given = try await server.notify(notification, replacing: id)
        file(given)
        for early in earlyActions where early.id == given { handle(.actionInvoked(id: early.id, key: early.key)) }
    }

    /// One line per server: a server that fails every call must not fill the journal.
    private func failedToPost(_ error: BusError) {
        guard !reportedFailure else { return }
        reportedFailure = true
        log("The notification server failed a call (\(error.message)); notifications may be missing")
    }
}
