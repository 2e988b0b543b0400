import Glibc
import Recording

/// Records from a PulseAudio (or PipeWire pulse) source into 16 kHz mono 16-bit WAV files.
///
/// Each recording is written to `<recordingsDirectory>/<id>.wav` as the audio arrives and kept
/// valid on disk about once a second, so a crash loses at most the last second.
public actor PulseCapture: Capturing {
    /// Losses of the input while recording; the file keeps the audio so far.
    public nonisolated let events: AsyncStream<CaptureEvent>

    /// Input level of the last ~100 ms in dBFS; −160 when silent or not capturing. Readable from any thread.
    public nonisolated var level: Double { sink.level }

    /// Whether a record stream of Notula's exists on the server (corked while paused); false once the server removed it.
    public nonisolated var isInputOpen: Bool { sink.isInputOpen }

    /// The actor whose executor runs this capture's own (short) work.
    private let isolation: any Actor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { isolation.unownedExecutor }

    private let recordingsDirectory: String
    private let keptFree: UInt64
    private let source: String?
    private let server: String?
    private let client: ClientIdentity
    private let sink: CaptureSink
    private var session: PulseSession?

    /// Creates a capture; nothing connects until `start(recording:)`.
    /// - Parameters:
    ///   - recordingsDirectory: Where the WAV files go; created with mode 0700 if missing.
    ///   - source: The PulseAudio source name to record from; nil for the server's default source.
    ///   - server: A server string for `pa_context_connect` (e.g. "unix:/run/user/1000/pulse/native");
    ///     nil to find the server as every client does (PULSE_SERVER, XDG_RUNTIME_DIR, client.conf).
    ///   - applicationName: The name mixers show for the recording client.
    ///   - applicationID: The client's `application.id`, matching its desktop file.
    ///   - isolation: An actor whose executor to share: the recorder's, so that its capture calls
    ///     need no hop to another thread. By default the capture has an executor of its own.
    ///   - listener: Given each recording's samples as they are written, on the capture's writer queue.
    ///   - inputChanged: Told when `isInputOpen` changes, on the PulseAudio thread or the capture's.
    ///   - lengthLimit: The most sample bytes in one file; what comes after waits for `split(continuingAs:)`.
    ///   - keptFree: Bytes a start or a resume leaves free on the recordings' disk (the memo library's reserve).
    ///   - stalledDiskPatience: How much audio waits in memory for a disk that takes none before the
    ///     recording is stopped as lost (10 minutes, 19 MB).
    public init(
        recordingsDirectory: String, source: String? = nil, server: String? = nil,
        applicationName: String = "Notula", applicationID: String = "org.notula.Notula", isolation: (any Actor)? = nil,
        listener: (any CapturedAudioListener)? = nil, inputChanged: (@Sendable (Bool) -> Void)? = nil,
        lengthLimit: UInt64 = WAVHeader.largestDataSize, keptFree: UInt64 = 0,
        stalledDiskPatience: Duration = .seconds(600)
    ) {
        self.keptFree = keptFree
        self.isolation = isolation ?? OwnIsolation()
        let (events, continuation) = AsyncStream.makeStream(
            of: CaptureEvent.self, bufferingPolicy: .bufferingNewest(16))
        self.events = events
        self.sink = CaptureSink(
            events: continuation, listener: listener, inputChanged: inputChanged, lengthLimit: min(lengthLimit, WAVHeader.largestDataSize),
            mostUnwritten: RecordingFormat.bytesPerSecond * Int(stalledDiskPatience.components.seconds))
        self.recordingsDirectory = recordingsDirectory
        self.source = source
        self.server = server
        self.client = ClientIdentity(name: applicationName, id: applicationID)
    }

    /// Connects to the server (reusing a healthy connection), opens the source, and starts
    /// writing `<recordingsDirectory>/<id>.wav` (mode 0600, never overwriting).
    /// - Throws: `.deviceUnavailable` without a server (within about 5 s) or without the source,
    ///   `.permissionDenied` when the server refuses, `.failed` when the file cannot be written.
    ///   Nothing is left behind on failure.
    public func start(recording: RecordingID, locale: String) async throws(CaptureError) {
        guard !sink.isRecording else { throw .failed("Already capturing") }
        let name = recording.rawValue
        guard !name.isEmpty, !name.hasPrefix("."), !name.contains("/") else {
            throw .failed("Invalid recording id '\(name)'")
        }
        do {
            sink.begin(try RecordingFile(directory: recordingsDirectory, name: name + ".wav"), of: recording, locale: locale)
        } catch {
            throw .failed(error.message)
        }
        do {
            // A Start finds out at once that there is no server; waiting for one is for a
            // Resume after a loss, when the server was there and may be restarting.
            try await openInput(waitingForServer: false)
        } catch {
            sink.dropFile()
            throw error
        }
    }

    public nonisolated func holdAudio(_ held: Bool) { sink.hold(held) }

    /// Corks the stream; succeeds at once if the input was lost.
    /// - Throws: `.failed` when not recording, or when the server refuses to cork.
    public func pause() async throws(CaptureError) {
        guard sink.isRecording else { throw .failed("Not capturing") }
        if let session, session.isStreaming {
            do {
                try session.setCorked(true)
            } catch  where session.isStreaming {
                throw .failed("Cannot pause the audio input (\(error.message)).")
            } catch {
                // Lost meanwhile: nothing is captured, which is what pausing asks for.
            }
        }
        sink.silence()
    }

    /// Uncorks the stream, or, if the stream or the server went away, opens the input again;
    /// either way the audio continues in the same file.
    /// - Throws: `.deviceUnavailable` / `.permissionDenied` when the input cannot be reopened.
    public func resume() async throws(CaptureError) {
        guard sink.isRecording else { throw .failed("Not capturing") }
        sink.resumeWriting()
        if let session, session.isStreaming {
            do {
                try session.setCorked(false)
                return
            } catch  where session.isStreaming {
                throw .failed("Cannot resume the audio input (\(error.message)).")
            } catch {
                // Lost while uncorking: reopen below.
            }
        }
        try await openInput(waitingForServer: true)
    }

    /// Closes the input, finalizes the WAV header and closes the file; works after a loss too.
    /// - Returns: The file and the seconds of audio in it.
    /// - Throws: `.failed` when not recording or when the file cannot be finalized.
    public func stop() async throws(CaptureError) -> CapturedAudio {
        await releaseInput()
        guard let file = sink.takeFile() else { throw .failed("Not capturing") }
        return try Self.finish(file)
    }

    /// Makes `<recordingsDirectory>/<next>.wav` and writes on into it from the sample after the
    /// last of the current file, which is finished and handed back.
    /// - Throws: `.noSpace` or `.failed` when the new file cannot be made; the current one stays.
    public func split(continuingAs next: RecordingID) async throws(CaptureError) -> CapturedAudio {
        let file: RecordingFile
        do {
            file = try RecordingFile(directory: recordingsDirectory, name: next.rawValue + ".wav")
        } catch {
            let message = "Cannot go on into a new memo: \(error.message)."
            throw error.isOutOfSpace ? .noSpace(message + " The audio so far is kept; free some space, then Resume.") : .failed(message)
        }
        guard let first = sink.continueRecording(in: file, as: next) else { throw .failed("Not capturing") }
        return try Self.finish(first)
    }

    private static func finish(_ file: consuming RecordingFile) throws(CaptureError) -> CapturedAudio {
        let path = file.path
        do {
            let dataBytes = try file.finish()
            return CapturedAudio(file: path, duration: Double(dataBytes) / Double(RecordingFormat.bytesPerSecond))
        } catch {
            throw .failed(error.message)
        }
    }

    /// Closes the input and deletes the recording's file; does nothing when not recording.
    public func discard() async {
        await releaseInput()
        sink.dropFile()
    }

    /// Refuses when the recordings folder (or, before it exists, the folder it will be made in)
    /// has less free space than a second of audio besides what is kept free: recording there would
    /// fail at once, or take the room the library keeps to save its memos.
    public nonisolated func checkSpace() throws(CaptureError) {
        var space = statvfs()
        guard let folder = nearestExistingFolder(of: recordingsDirectory), statvfs(folder, &space) == 0 else { return }
        let free = UInt64(space.f_bavail) * UInt64(space.f_frsize)
        guard free < UInt64(RecordingFormat.bytesPerSecond) + keptFree else { return }
        throw .noSpace(
            "No room left for recordings in \(recordingsDirectory) (\(free / 1024) kB free\(keptFree > 0 ? ", \(keptFree / 1024) kB of it kept for the memo library" : "")). Free some space, then try again; Send and Discard still work."
        )
    }

    /// Waits before each further attempt to reach a server that refused: a restarting server
    /// (PipeWire's takes about a second) is back within them, a stopped one is reported in about 2 s.
    private static let reconnectDelays: [Duration] = [.milliseconds(250), .milliseconds(500), .seconds(1)]

    /// Closes the stream and waits until the server removed it.
    private func releaseInput() async {
        await session?.releaseStream()
        sink.setInputOpen(false)
    }

    /// Opens the record stream, connecting a new context first unless the current one is healthy;
    /// `waitingForServer`, trying again while nothing listens at the server's address.
    private func openInput(waitingForServer: Bool) async throws(CaptureError) {
        let session = try runningSession()
        if !session.isConnected { try await connect(session, retrying: waitingForServer) }
        do {
            try await session.openStream(source: source)
        } catch {
            throw error.unusableSource(source)
        }
    }

    /// Connects, trying again with growing pauses while nothing listens at the server's address
    /// when `retrying` (a server that refuses access or never answers is reported at once).
    private func connect(_ session: PulseSession, retrying: Bool) async throws(CaptureError) {
        var delays = (retrying ? Self.reconnectDelays : []).makeIterator()
        while true {
            do {
                return try await session.connect(server: server, as: client)
            } catch {
                guard error.isRefused, let delay = delays.next() else { throw error.unreachableServer }
                try? await Task.sleep(for: delay)
            }
        }
    }

    private func runningSession() throws(CaptureError) -> PulseSession {
        if let session { return session }
        do {
            let session = try PulseSession(sink: sink)
            self.session = session
            return session
        } catch {
            throw .failed("Cannot start the PulseAudio client (\(error.message)).")
        }
    }
}

/// The executor of a capture that shares none.
private actor OwnIsolation {}
