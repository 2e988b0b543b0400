import CPulse

/// How the client appears in mixers (pavucontrol, GNOME Settings).
struct ClientIdentity: Sendable {
    let name: String
    let id: String
    let iconName = "audio-input-microphone"
}

/// libpulse's threaded main loop, with the context and the record stream it drives.
///
/// Every libpulse call of the capture goes through this file (besides `pa_strerror` in PulseError,
/// and the stream subscription in CallWatch).
/// The loop's thread runs the callbacks, which hand everything to the `CaptureSink`; calls from
/// any other thread hold the loop lock, and only for as long as a non-blocking pa call takes.
/// Asynchronous operations are awaited with continuations resumed by the callbacks, so no
/// Swift concurrency thread ever waits on `pa_threaded_mainloop_wait`.
final class PulseSession {
    private static let operationTimeoutMicroseconds: UInt64 = 5_000_000
    /// What is in flight when the stream is corked or closed is lost to the file, so the
    /// fragments are small: at most 20 ms short per pause, at 50 wake-ups a second while recording.
    private static let fragmentMicroseconds: UInt64 = 20_000

    private let mainloop: OpaquePointer
    private let sink: CaptureSink
    private var context: OpaquePointer?
    private var stream: OpaquePointer?
    private var timeout: OpaquePointer?

    /// Starts the main loop thread.
    /// - Throws: `PulseError` if libpulse cannot create or start it.
    init(sink: CaptureSink) throws(PulseError) {
        guard let mainloop = pa_threaded_mainloop_new() else { throw .internal }
        guard pa_threaded_mainloop_start(mainloop) == 0 else {
            pa_threaded_mainloop_free(mainloop)
            throw .internal
        }
        self.mainloop = mainloop
        self.sink = sink
    }

    deinit {
        locked { detachContext() }
        pa_threaded_mainloop_stop(mainloop)
        pa_threaded_mainloop_free(mainloop)
    }

    /// The context is connected and usable.
    var isConnected: Bool {
        locked { context.map { pa_context_get_state($0) == PA_CONTEXT_READY } ?? false }
    }

    /// A record stream is connected (corked or not) and has not failed.
    var isStreaming: Bool {
        locked { stream.map { pa_stream_get_state($0) == PA_STREAM_READY } ?? false }
    }

    /// Replaces any previous context with a new one connected to `server` (nil: the usual lookup
    /// through PULSE_SERVER, XDG_RUNTIME_DIR and client.conf), waiting at most 5 s.
    /// Never autospawns a server: a missing one is reported, not papered over.
    nonisolated(nonsending) func connect(server: String?, as client: ClientIdentity) async throws(PulseError) {
        locked { detachContext() }
        do {
            try await perform { () -> PulseError? in
                let properties = pa_proplist_new()
                defer { pa_proplist_free(properties) }
                pa_proplist_sets(properties, PA_PROP_APPLICATION_NAME, client.name)
                pa_proplist_sets(properties, PA_PROP_APPLICATION_ID, client.id)
                pa_proplist_sets(properties, PA_PROP_APPLICATION_ICON_NAME, client.iconName)
                let api = pa_threaded_mainloop_get_api(mainloop)
                guard let context = pa_context_new_with_proplist(api, client.name, properties) else {
                    return .internal
                }
                self.context = context
                pa_context_set_state_callback(context, contextStateChanged, userdata)
                guard pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) == 0 else {
                    return PulseError(code: pa_context_errno(context))
                }
                return nil
            }
        } catch {
            locked { detachContext() }
            throw error
        }
        locked {
            if let context { CallWatch.start(on: context, userdata) }
        }
    }

    /// Replaces any previous stream with a new record stream from `source` (nil: the default
    /// source), 16 kHz mono s16le delivered in ~20 ms fragments, and waits until it is ready.
    nonisolated(nonsending) func openStream(source: String?) async throws(PulseError) {
        do {
            try await perform { () -> PulseError? in
                detachStream()
                guard let context, pa_context_get_state(context) == PA_CONTEXT_READY else { return .badState }
                var format = pa_sample_spec(
                    format: PA_SAMPLE_S16LE, rate: UInt32(RecordingFormat.sampleRate),
                    channels: UInt8(RecordingFormat.channels))
                let properties = pa_proplist_new()
                defer { pa_proplist_free(properties) }
                pa_proplist_sets(properties, PA_PROP_MEDIA_ROLE, "production")
                guard let stream = pa_stream_new_with_proplist(context, "Recording", &format, nil, properties) else {
                    return PulseError(code: pa_context_errno(context))
                }
                self.stream = stream
                pa_stream_set_state_callback(stream, streamStateChanged, userdata)
                pa_stream_set_read_callback(stream, samplesArrived, userdata)
                pa_stream_set_moved_callback(stream, streamMoved, userdata)
                let serverChooses = UInt32.max
                var buffering = pa_buffer_attr(
                    maxlength: serverChooses, tlength: serverChooses, prebuf: serverChooses,
                    minreq: serverChooses,
                    fragsize: UInt32(pa_usec_to_bytes(Self.fragmentMicroseconds, &format)))
                guard pa_stream_connect_record(stream, source, &buffering, PA_STREAM_ADJUST_LATENCY) == 0 else {
                    return PulseError(code: pa_context_errno(context))
                }
                return nil
            }
        } catch {
            closeStream()
            throw error
        }
    }

    /// Corks (stops capture without closing the stream) or uncorks.
    ///
    /// Not waiting for the server's confirmation: the server carries out a connection's requests in
    /// the order sent, and a stream that fails meanwhile reports it through its state callback. The
    /// wait would cost every pause and resume a round trip through the PulseAudio thread.
    func setCorked(_ corked: Bool) throws(PulseError) {
        try locked { () throws(PulseError) in
            guard let stream, pa_stream_get_state(stream) == PA_STREAM_READY else { throw .badState }
            guard let operation = pa_stream_cork(stream, corked ? 1 : 0, nil, nil) else {
                throw PulseError(code: pa_context_errno(pa_stream_get_context(stream)))
            }
            pa_operation_unref(operation)
        }
    }

    /// Disconnects the stream; samples already delivered stay with the sink. The context stays for the next recording.
    func closeStream() {
        locked { detachStream() }
    }

    /// Disconnects the stream and returns once the server has removed it: a server answers a connection's requests in
    /// the order sent, so its answer to one sent after the disconnect means the source output is gone. Without a
    /// connection there is nothing of ours on the server to wait for.
    nonisolated(nonsending) func releaseStream() async {
        try? await perform { () -> PulseError? in
            detachStream()
            guard let context, pa_context_get_state(context) == PA_CONTEXT_READY else { return .badState }
            guard let operation = pa_context_get_server_info(context, serverAnswered, userdata) else {
                return PulseError(code: pa_context_errno(context))
            }
            pa_operation_unref(operation)
            return nil
        }
    }

    // MARK: Lock held

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(sink).toOpaque() }

    private func locked<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pa_threaded_mainloop_lock(mainloop)
        defer { pa_threaded_mainloop_unlock(mainloop) }
        return try body()
    }

    /// Starts an operation whose completion a callback reports to the sink, and awaits it.
    /// `begin` runs with the lock held and returns an error if the operation could not even start.
    nonisolated(nonsending) private func perform(_ begin: () -> PulseError?) async throws(PulseError) {
        let result = await withCheckedContinuation { continuation in
            locked {
                sink.awaitOperation(continuation)
                if let error = begin() {
                    sink.complete(.failure(error))
                } else {
                    armTimeout()
                }
            }
        }
        locked { disarmTimeout() }
        try result.get()
    }

    /// Bounds the wait: libpulse itself has no timeout for a server that accepts but never answers.
    private func armTimeout() {
        guard let context else { return }
        timeout = pa_context_rttime_new(
            context, pa_rtclock_now() + Self.operationTimeoutMicroseconds, operationTimedOut, userdata)
    }

    private func disarmTimeout() {
        guard let timeout else { return }
        pa_threaded_mainloop_get_api(mainloop).pointee.time_free(timeout)
        self.timeout = nil
    }

    private func detachStream() {
        guard let stream else { return }
        // Callbacks go first: disconnecting reports TERMINATED inline, and no callback may outlive the stream.
        sink.unwatch()
        pa_stream_set_state_callback(stream, nil, nil)
        pa_stream_set_read_callback(stream, nil, nil)
        pa_stream_set_moved_callback(stream, nil, nil)
        if pa_stream_get_state(stream) == PA_STREAM_READY || pa_stream_get_state(stream) == PA_STREAM_CREATING {
            pa_stream_disconnect(stream)
        }
        pa_stream_unref(stream)
        self.stream = nil
    }

    private func detachContext() {
        detachStream()
        disarmTimeout()
        guard let context else { return }
        pa_context_set_state_callback(context, nil, nil)
        pa_context_set_subscribe_callback(context, nil, nil)
        sink.forgetStreams()
        pa_context_disconnect(context)
        pa_context_unref(context)
        self.context = nil
    }
}

@available(*, unavailable)
extension PulseSession: Sendable {}

// MARK: Callbacks (pa thread, lock held)

func captureSink(_ userdata: UnsafeMutableRawPointer?) -> CaptureSink {
    Unmanaged<CaptureSink>.fromOpaque(userdata!).takeUnretainedValue()
}

private let contextStateChanged: pa_context_notify_cb_t = { context, userdata in
    switch pa_context_get_state(context) {
    case PA_CONTEXT_READY:
        captureSink(userdata).complete(.success(()))
    case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
        let error = PulseError(code: pa_context_errno(context))
        captureSink(userdata).forgetStreams()
        captureSink(userdata).fail(
            error, lost: "Lost the connection to the sound server (\(error.message)). The audio so far is kept.")
    default:
        break
    }
}

private let streamStateChanged: pa_stream_notify_cb_t = { stream, userdata in
    switch pa_stream_get_state(stream) {
    case PA_STREAM_READY:
        captureSink(userdata).streamReady()
    case PA_STREAM_FAILED:
        let error = PulseError(code: pa_context_errno(pa_stream_get_context(stream)))
        captureSink(userdata).fail(
            error, lost: "Lost the audio input (\(error.message)). The audio so far is kept.")
    default:
        break
    }
}

private let serverAnswered: pa_server_info_cb_t = { _, _, userdata in
    captureSink(userdata).complete(.success(()))
}

private let streamMoved: pa_stream_notify_cb_t = { stream, userdata in
    guard let source = pa_stream_get_device_name(stream) else { return }
    captureSink(userdata).moved(to: String(cString: source))
}

private let samplesArrived: pa_stream_request_cb_t = { stream, _, userdata in
    let sink = captureSink(userdata)
    var data: UnsafeRawPointer?
    var length = 0
    // What is read now came in order: each fragment is older than its arrival by the fragments after it.
    var following = max(pa_stream_readable_size(stream), 0)
    while pa_stream_peek(stream, &data, &length) == 0 && length > 0 {
        following -= min(following, length)
        // A nil pointer with a length is a hole in the stream: nothing to write, but it must be dropped.
        if let data {
            sink.receive(UnsafeRawBufferPointer(start: data, count: length), followedBy: following)
        }
        pa_stream_drop(stream)
    }
}

private let operationTimedOut: pa_time_event_cb_t = { _, _, _, userdata in
    captureSink(userdata).complete(.failure(.timeout))
}
