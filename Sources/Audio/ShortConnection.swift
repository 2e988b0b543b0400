import CPulse
import Glibc

/// A connection of its own to the sound server for one short job — a few requests about sinks, a
/// cue played — made and closed per job: both are rare (a recording's start and end), so nothing
/// is kept open for them.
///
/// Blocking, with a deadline on every wait: call it from a queue of its own, never an actor's.
/// Every libpulse call about sinks and cues is in this file.
final class ShortConnection {
    /// A server that has not answered within this is treated as gone.
    private static let patienceMicroseconds: Int64 = 2_000_000

    private let mainloop: OpaquePointer
    private let context: OpaquePointer

    /// Connects to `server` (nil: the usual lookup), never autospawning one.
    init?(server: String?, name: String) {
        guard let mainloop = pa_mainloop_new() else { return nil }
        guard let context = pa_context_new(pa_mainloop_get_api(mainloop), name) else {
            pa_mainloop_free(mainloop)
            return nil
        }
        self.mainloop = mainloop
        self.context = context
        guard pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) == 0,
            wait(until: { pa_context_get_state(context) == PA_CONTEXT_READY })
        else { return nil }
    }

    deinit {
        pa_context_disconnect(context)
        pa_context_unref(context)
        pa_mainloop_free(mainloop)
    }

    /// The server's default sink.
    func defaultSink() -> String? {
        let answer = Answer()
        let begun = pa_context_get_server_info(
            context,
            { _, info, userdata in
                let answer = Answer.of(userdata)
                answer.name = info?.pointee.default_sink_name.map { String(cString: $0) }
                answer.done = true
            }, answer.pointer)
        return finish(begun, answer) ? answer.name : nil
    }

    /// Whether `sink` is muted, and its volume; nil when there is no such sink or no answer.
    func state(of sink: String) -> SinkState? {
        let answer = Answer()
        let begun = pa_context_get_sink_info_by_name(
            context, sink,
            { _, info, last, userdata in
                let answer = Answer.of(userdata)
                if let info {
                    var volume = info.pointee.volume
                    let channels = withUnsafeBytes(of: &volume.values) { Array($0.bindMemory(to: UInt32.self)) }
                    answer.sink = SinkState(muted: info.pointee.mute != 0, volume: Array(channels.prefix(Int(volume.channels))))
                }
                if last != 0 { answer.done = true }
            }, answer.pointer)
        return finish(begun, answer) ? answer.sink : nil
    }

    /// Tells `changed` the state of `sink` (nil once it is gone) after each event about a sink, until `changed` or
    /// `stop` (asked every quarter of a second) says to stop, or the connection fails.
    func watch(_ sink: String, until stop: () -> Bool, changed: (SinkState?) -> Bool) {
        let events = Answer()
        pa_context_set_subscribe_callback(context, { _, _, _, userdata in Answer.of(userdata).done = true }, events.pointer)
        defer { pa_context_set_subscribe_callback(context, nil, nil) }
        let subscribed = Answer()
        guard finish(pa_context_subscribe(context, PA_SUBSCRIPTION_MASK_SINK, Answer.tellSuccess, subscribed.pointer), subscribed),
            subscribed.succeeded
        else { return }
        withExtendedLifetime(events) {
            while !stop() {
                let state = pa_context_get_state(context)
                guard state != PA_CONTEXT_FAILED, state != PA_CONTEXT_TERMINATED else { return }
                guard pa_mainloop_prepare(mainloop, 250_000) >= 0, pa_mainloop_poll(mainloop) >= 0, pa_mainloop_dispatch(mainloop) >= 0
                else { return }
                guard events.done else { continue }
                events.done = false
                if changed(self.state(of: sink)) { return }
            }
        }
    }

    /// Mutes or unmutes `sink`; false when the server refused or did not answer.
    func setMuted(_ sink: String, _ muted: Bool) -> Bool {
        let answer = Answer()
        let begun = pa_context_set_sink_mute_by_name(context, sink, muted ? 1 : 0, Answer.tellSuccess, answer.pointer)
        return finish(begun, answer) && answer.succeeded
    }

    /// Plays `sound` on the default sink (or `$PULSE_SINK`) as an event sound, and returns once the
    /// server has played it all, or false when it could not.
    func play(_ sound: Sound, named name: String) -> Bool {
        var format = pa_sample_spec(format: PA_SAMPLE_S16LE, rate: UInt32(sound.rate), channels: UInt8(sound.channels))
        let properties = pa_proplist_new()
        defer { pa_proplist_free(properties) }
        pa_proplist_sets(properties, PA_PROP_MEDIA_ROLE, "event")
        pa_proplist_sets(properties, PA_PROP_EVENT_ID, name)
        guard let stream = pa_stream_new_with_proplist(context, name, &format, nil, properties) else { return false }
        defer {
            pa_stream_disconnect(stream)
            pa_stream_unref(stream)
        }
        // The whole sound is written while the stream is corked, then played with no prebuffering: the stream's first
        // underflow is its end. (A drain is answered only after the sink's whole buffer, seconds on a null sink.)
        let bytes = UInt32(sound.samples.count * MemoryLayout<Int16>.size)
        let serverChooses = UInt32.max
        var buffering = pa_buffer_attr(maxlength: serverChooses, tlength: bytes, prebuf: 0, minreq: serverChooses, fragsize: serverChooses)
        let flags = pa_stream_flags_t(PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_START_CORKED.rawValue)
        guard pa_stream_connect_playback(stream, nil, &buffering, flags, nil, nil) == 0,
            wait(until: { pa_stream_get_state(stream) == PA_STREAM_READY })
        else { return false }
        let written = sound.samples.withUnsafeBytes { bytes in
            pa_stream_write(stream, bytes.baseAddress, bytes.count, nil, 0, PA_SEEK_RELATIVE) == 0
        }
        let answer = Answer()
        pa_stream_set_underflow_callback(stream, { _, userdata in Answer.of(userdata).done = true }, answer.pointer)
        guard written, let uncorked = pa_stream_cork(stream, 0, nil, nil) else { return false }
        pa_operation_unref(uncorked)
        let length = Int64(sound.samples.count / sound.channels) * 1_000_000 / Int64(sound.rate)
        guard withExtendedLifetime(answer, { wait(until: { answer.done }, patience: 2 * length + Self.patienceMicroseconds) }) else {
            return false
        }
        // The last sample has left the stream for the sink; it is heard once the sink's own buffer has played it.
        usleep(UInt32(min(sinkLatency(of: stream), Self.mostSinkLatencyMicroseconds)))
        return true
    }

    /// A sink's buffer longer than this is not waited for (a null sink's is seconds long, and plays nowhere).
    private static let mostSinkLatencyMicroseconds: UInt64 = 250_000

    /// The sink's latency and the transport's to it, as the server tells now; 0 when it does not.
    private func sinkLatency(of stream: OpaquePointer) -> UInt64 {
        let answer = Answer()
        let begun = pa_stream_update_timing_info(stream, Answer.tellSuccess, answer.pointer)
        guard finish(begun, answer), answer.succeeded, let timing = pa_stream_get_timing_info(stream) else { return 0 }
        return UInt64(timing.pointee.sink_usec) + UInt64(timing.pointee.transport_usec)
    }

    /// Waits for `operation`'s answer, `patience` more than for a request (the length of a sound played).
    private func finish(_ operation: OpaquePointer?, _ answer: Answer, patience: Int64 = 0) -> Bool {
        guard let operation else { return false }
        defer { pa_operation_unref(operation) }
        return withExtendedLifetime(answer) { wait(until: { answer.done }, patience: patience) }
    }

    /// Runs the loop until `done`, the connection fails, or the server has been silent too long.
    private func wait(until done: () -> Bool, patience: Int64 = 0) -> Bool {
        let deadline = Self.microsecondsNow() + Self.patienceMicroseconds + patience
        while !done() {
            let state = pa_context_get_state(context)
            guard state != PA_CONTEXT_FAILED, state != PA_CONTEXT_TERMINATED else { return false }
            let left = deadline - Self.microsecondsNow()
            guard left > 0 else { return false }
            guard pa_mainloop_prepare(mainloop, Int32(left)) >= 0,
                pa_mainloop_poll(mainloop) >= 0, pa_mainloop_dispatch(mainloop) >= 0
            else { return false }
        }
        return true
    }

    private static func microsecondsNow() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
    }

    /// What a callback found; lives until its operation is finished.
    private final class Answer {
        var done = false
        var name: String?
        var sink: SinkState?
        var succeeded = false
        var pointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
        static func of(_ pointer: UnsafeMutableRawPointer?) -> Answer { Unmanaged<Answer>.fromOpaque(pointer!).takeUnretainedValue() }
        /// The callback of an operation that only succeeds or fails, a context's or a stream's alike.
        static let tellSuccess: @convention(c) (OpaquePointer?, Int32, UnsafeMutableRawPointer?) -> Void = { _, success, userdata in
            let answer = Answer.of(userdata)
            answer.succeeded = success != 0
            answer.done = true
        }
    }
}

/// What `muteOutput` compares to tell a sink left as Notula set it from one the user has changed since.
struct SinkState: Equatable {
    var muted: Bool
    /// Each channel's volume, as the server counts it (`PA_VOLUME_NORM` is 100 %).
    var volume: [UInt32]
}
