/// Identifies one recording from its start; the capture names its audio file after it.
public struct RecordingID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// The audio a finished capture hands on: a file, never an in-memory copy.
public struct CapturedAudio: Sendable, Equatable {
    /// Absolute path of the WAV file.
    public let file: String
    /// Seconds of audio in the file.
    public let duration: Double
    public init(file: String, duration: Double) {
        self.file = file
        self.duration = duration
    }
}

/// What the capture reports without being asked.
public enum CaptureEvent: Sendable, Equatable {
    /// The stream or the sound server went away; the audio written so far is kept.
    case lost(message: String)
    /// The file system has no room for more audio; what was written is kept, as a valid file.
    case outOfSpace(message: String)
    /// The server moved the stream to another source (its own went away); the recording goes on from there.
    case moved(source: String)
    /// Another application opened the first stream of a call (`media.role` phone), playing or recording.
    case callStarted
    /// The last stream of a call closed.
    case callEnded
    /// The file of `recording` holds as much audio as a memo may (at most what a WAV file can): the
    /// samples that come next wait, in memory, for `split(continuingAs:)` to give them a file.
    case lengthLimitReached(RecordingID)
    /// The first samples since the audio was let through (`holdAudio(false)`) reached the file: an
    /// input reports itself open a second or more before it delivers anything (a Bluetooth headset
    /// switching profiles), and the timer counts from here: from `at`, the monotonic time of the first sample (its
    /// read's arrival less the audio read after it), as the event may wait behind calls on a busy executor while
    /// more samples reach the file. What one read carried from before the audio was let through is held back.
    case audioArrived(at: Duration)
}

/// Why a capture call failed, in words a person can act on.
public enum CaptureError: Error, Sendable, Equatable {
    /// No sound server, a refused connection, or no such source.
    case deviceUnavailable(String)
    /// The server or the file system refused access.
    case permissionDenied(String)
    /// The recordings folder's file system is full.
    case noSpace(String)
    /// Anything else (a file that cannot be written, …).
    case failed(String)
}

/// Captures audio from a microphone into a file.
///
/// The recorder calls these strictly in transition order (start, then any
/// pause/resume pairs, then stop or discard) and never two at once.
public protocol Capturing: Sendable {
    /// Opens the input and starts writing the recording's file; the listener hears its start with
    /// `locale`, the one it is transcribed in.
    func start(recording: RecordingID, locale: String) async throws(CaptureError)
    /// Stops capturing without closing the file; nothing is captured while paused.
    func pause() async throws(CaptureError)
    /// Continues capturing into the same file (reopening the input if it was lost).
    func resume() async throws(CaptureError)
    /// Closes the input and the file and hands the file on.
    func stop() async throws(CaptureError) -> CapturedAudio
    /// Ends the recording's file where it is and goes on, without a gap, into a new file for
    /// `next`, starting with the samples that waited for it.
    /// - Returns: the audio of the file ended, complete.
    /// - Throws: when the new file cannot be made; nothing changed then.
    func split(continuingAs next: RecordingID) async throws(CaptureError) -> CapturedAudio
    /// Closes the input and deletes the recording's file.
    func discard() async
    /// Holds back (or lets through) the samples that arrive, at once: the recorder holds them at a
    /// pause's transition and lets them through once the input is open, starting its timer at the
    /// `audioArrived` that follows, so that the file follows the timer even when the capture steps
    /// lag behind calls in flight. Held samples are neither written nor heard.
    func holdAudio(_ held: Bool)
    /// Throws `.noSpace` when the recordings folder has no room for more audio: the check before
    /// a start or a resume, so that a full disk is refused at once rather than failing later.
    func checkSpace() throws(CaptureError)
    /// Interruptions the capture reports by itself.
    var events: AsyncStream<CaptureEvent> { get }
    /// Input level of the last ~100 ms in dBFS; −160 when silent or not capturing.
    var level: Double { get }
}

/// Receives a recording's audio as the capture writes it, so that it can be transcribed while the user speaks.
///
/// Called in order, from the thread that captures: every call must return at once.
public protocol CapturedAudioListener: Sendable {
    /// The capture of `recording`, to be transcribed in `locale`, started; its samples follow.
    func captureStarted(_ recording: RecordingID, locale: String)
    /// The next samples of `recording`, as written to its file: 16 kHz mono, signed 16-bit little-endian.
    func captured(_ samples: UnsafeRawBufferPointer, of recording: RecordingID)
    /// `recording` was sent: its file is complete and handed on, nothing more of it comes.
    func captureEnded(_ recording: RecordingID)
    /// `recording` was discarded, or its capture failed to start: nothing more of it comes.
    func captureDropped(_ recording: RecordingID)
    /// `previous` reached the length limit and is complete; its audio goes on as `next`, whose samples follow.
    func captureContinued(_ previous: RecordingID, as next: RecordingID)
}
