import Dispatch
import Downloading
import FoundationEssentials
import Glibc
import Recording
import Synchronization

/// The parent's side of the decoding helper: `notulad --decoding-helper WHISPER SHERPA`, started when a decoding is
/// asked for, sent one request at a time for either engine, and ended (its standard input closed) after `idleRelease`
/// unused, returning the model's memory. A helper that dies — a ggml assertion, a model that crashes libwhisper, a
/// model sherpa-onnx ends the process on or aborts in — fails the decoding it was doing, with the reason, and the
/// next decoding starts another.
public final class DecodingHelper: Sendable {
    /// The engines' libraries the helper opens, each at its first request for it; nil for one not on this machine.
    public struct Libraries: Sendable {
        public let whisper: String?
        public let sherpa: String?

        public init(whisper: String? = nil, sherpa: String? = nil) {
            self.whisper = whisper
            self.sherpa = sherpa
        }
    }

    private let executable: String
    public let libraries: Libraries
    private let idleRelease: Duration
    private let queue = DispatchQueue(label: "org.notula.decoding")
    /// Only touched on `queue`.
    private let running = Mutex<Running?>(nil)
    /// The helper's process while it decodes a request, for a cancellation from another thread; 0 otherwise.
    private let decoding = Atomic<Int32>(0)
    /// Which request it decodes: a cancellation signals the helper only for its own request, not one behind it.
    private let decodingRequest = Atomic<Int>(0)
    private let requestsMade = Atomic<Int>(0)
    private let uses = Atomic<Int>(0)

    private struct Running {
        let pid: pid_t
        let input: Int32
        let output: Int32
        var pending: [UInt8] = []
    }

    /// - Parameters:
    ///   - executable: notulad, run again as the helper: `/proc/self/exe`.
    ///   - libraries: libwhisper.so.1 and libsherpa-onnx-c-api.so, for the helper to open.
    public init(executable: String, libraries: Libraries, idleRelease: Duration) {
        self.executable = executable
        self.libraries = libraries
        self.idleRelease = idleRelease
    }

    /// `request` answered by the helper, waiting on the calling thread: a speech engine's queue. Throws as
    /// `answer(_:)`, `.cancelled` once `isCancelled` says so.
    func answer(_ request: DecodingRequest, unless isCancelled: () -> Bool) throws(SpeechError) -> DecodingAnswer {
        let id = requestsMade.add(1, ordering: .relaxed).newValue
        let outcome = queue.sync { [self] in
            defer { scheduleRelease() }
            return Result { () throws(SpeechError) in try ask(request, id: id, unless: isCancelled) }
        }
        return try outcome.get()
    }

    /// `request` answered by the helper.
    /// - Throws: `.cancelled` when the task is cancelled (the helper is told at once, and ended when it has not answered
    ///   within `cancelGrace`: sherpa-onnx cannot be stopped inside a decoding); `.recognitionFailed` saying why when
    ///   the helper fails or dies; `.engineUnavailable`, `.modelUnavailable` as it says.
    func answer(_ request: DecodingRequest) async throws(SpeechError) -> DecodingAnswer {
        let cancelled = RequestCancellation(id: requestsMade.add(1, ordering: .relaxed).newValue)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<DecodingAnswer, SpeechError>, Never>) in
                queue.async { [self] in
                    continuation.resume(
                        returning: Result { () throws(SpeechError) in
                            try ask(request, id: cancelled.id, unless: { cancelled.flag.load(ordering: .sequentiallyConsistent) })
                        })
                    scheduleRelease()
                }
            }
        } onCancel: {
            // Set before the helper is looked at, as `ask` marks it busy before looking at this: one sees the other.
            cancelled.flag.store(true, ordering: .sequentiallyConsistent)
            guard decodingRequest.load(ordering: .sequentiallyConsistent) == cancelled.id else { return }
            let pid = decoding.load(ordering: .sequentiallyConsistent)
            if pid > 0 { kill(pid, SIGUSR1) }
        }
        return try outcome.get()
    }

    /// Whether the helper is decoding a request now.
    public var isDecoding: Bool { decoding.load(ordering: .relaxed) != 0 }

    /// One request and its answer, on `queue`.
    private func ask(_ request: DecodingRequest, id: Int, unless isCancelled: () -> Bool) throws(SpeechError) -> DecodingAnswer {
        var helper: Running
        if let current = running.withLock({ $0 }) { helper = current } else { helper = try start() }
        guard var line = try? JSONEncoder().encode(request).map({ $0 }) else {
            throw .recognitionFailed("The request could not be encoded.")
        }
        line.append(UInt8(ascii: "\n"))
        decodingRequest.store(id, ordering: .sequentiallyConsistent)
        decoding.store(helper.pid, ordering: .sequentiallyConsistent)
        defer {
            decoding.store(0, ordering: .sequentiallyConsistent)
            decodingRequest.store(0, ordering: .sequentiallyConsistent)
        }
        if isCancelled() { throw .cancelled }
        let answer =
            ChildPipe.write(line, to: helper.input) ? Self.readLine(from: helper, pending: &helper.pending, unless: isCancelled) : nil
        if answer == nil, isCancelled() {
            // libwhisper asks its abort callback only between its steps, a second apart while it encodes, and sherpa-onnx
            // never: past the grace, the helper goes, and the next decoding starts another.
            kill(helper.pid, SIGKILL)
            end(helper)
            throw .cancelled
        }
        guard let answer, let reply = try? JSONDecoder().decode(DecodingAnswer.self, from: Data(answer)) else {
            let reason = end(helper)
            throw .recognitionFailed(
                "The \(request.engine.name) engine stopped while decoding \(request.file.isEmpty ? "an utterance" : request.file) "
                    + "with \(request.modelName) (\(reason)): the model may be damaged, or one the engine cannot run; "
                    + "the next decoding starts the engine again.")
        }
        running.withLock { $0 = helper }
        if reply.cancelled == true { throw .cancelled }
        if let error = reply.error { throw .recognitionFailed(error) }
        return reply
    }

    /// Starts the helper, its standard input and output pipes of ours, ggml told not to start a debugger on an assertion.
    private func start() throws(SpeechError) -> Running {
        let arguments = [DecodingHelperServer.argument, libraries.whisper ?? "", libraries.sherpa ?? ""]
        switch HelperSpawn.startPiped(executable, arguments, environment: Self.environment) {
        case .success(let child):
            Log.info("Started the decoding helper (process \(child.pid))")
            return Running(pid: child.pid, input: child.input, output: child.output)
        case .failure(let error):
            throw .engineUnavailable("Cannot start the decoding helper \(executable): \(error.message).")
        }
    }

    /// A helper's environment (`HelperSpawn.helperEnvironment`), with ggml's assertion kept from starting gdb (it hung
    /// for minutes when it did), and Swift's crash backtracer kept from starting: it inherits the helper's output pipe,
    /// and one that hung kept the pipe open after the helper died, so its decoding waited 40 minutes for an answer that
    /// could not come.
    private static var environment: [String] {
        let overrides = ["GGML_NO_BACKTRACE=1", "SWIFT_BACKTRACE=enable=no"]
        let entries = HelperSpawn.helperEnvironment.filter { text in
            !overrides.contains { text.hasPrefix($0.prefix { $0 != "=" } + "=") }
        }
        return entries + overrides
    }

    /// Ends the helper (its input closed, then reaped) and says how it ended.
    @discardableResult
    private func end(_ helper: Running) -> String {
        running.withLock { $0 = nil }
        close(helper.input)
        close(helper.output)
        let reason =
            switch ChildSpawn.reap(helper.pid) {
            case .exited(let status): "exit status \(status)"
            case .signalled(let signal): "killed by signal \(signal)"
            }
        Log.info("The decoding helper (process \(helper.pid)) ended: \(reason)")
        return reason
    }

    /// Ends the helper after `idleRelease` unless it is used again before.
    private func scheduleRelease() {
        let use = uses.add(1, ordering: .relaxed).newValue
        queue.asyncAfter(deadline: .now() + idleRelease / .seconds(1)) { [self] in
            guard uses.load(ordering: .relaxed) == use, let helper = running.withLock({ $0 }) else { return }
            end(helper)
        }
    }

    /// How long a cancelled decoding may take to answer before its helper is killed.
    static let cancelGrace: Duration = .milliseconds(300)

    /// The next line the helper writes, without its newline; nil when it ends first, or `cancelGrace` after the
    /// request was cancelled, which the helper is told (SIGUSR1) once seen. `pending` keeps what follows it.
    private static func readLine(from helper: Running, pending: inout [UInt8], unless isCancelled: () -> Bool) -> [UInt8]? {
        let descriptor = helper.output
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var cancelledAt: ContinuousClock.Instant?
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                return line
            }
            var watched = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            // Woken every 50 ms to see whether the task was cancelled meanwhile.
            let ready = poll(&watched, 1, 50)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 {
                // Its output can outlive it, held by a process it started: nothing more comes once it has exited.
                if ChildSpawn.hasEnded(helper.pid) { return nil }
                if isCancelled() {
                    if cancelledAt == nil { kill(helper.pid, SIGUSR1) }
                    let since = cancelledAt ?? .now
                    cancelledAt = since
                    if ContinuousClock.now - since > cancelGrace { return nil }
                }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            // An answer is a few KB a minute of speech; one past 64 MB is no answer.
            guard count > 0, pending.count < 1 << 26 else { return nil }
            pending += buffer[..<count]
        }
    }
}

/// Set when the task awaiting a request is cancelled.
private final class RequestCancellation: Sendable {
    let id: Int
    let flag = Atomic(false)

    init(id: Int) { self.id = id }
}
