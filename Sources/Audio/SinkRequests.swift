import CPulse
import Glibc

/// A connection of its own to the sound server for a few quick requests about sinks, made and
/// closed per job: muting is rare (a recording's start and end), so nothing is kept open for it.
///
/// Blocking, with a deadline on every wait: call it from a queue of its own, never an actor's.
/// Every libpulse call about sinks is in this file.
final class SinkRequests {
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

    /// Whether `sink` is muted; nil when there is no such sink or no answer.
    func isMuted(_ sink: String) -> Bool? {
        let answer = Answer()
        let begun = pa_context_get_sink_info_by_name(
            context, sink,
            { _, info, last, userdata in
                let answer = Answer.of(userdata)
                if let info { answer.muted = info.pointee.mute != 0 }
                if last != 0 { answer.done = true }
            }, answer.pointer)
        return finish(begun, answer) ? answer.muted : nil
    }

    /// Mutes or unmutes `sink`; false when the server refused or did not answer.
    func setMuted(_ sink: String, _ muted: Bool) -> Bool {
        let answer = Answer()
        let begun = pa_context_set_sink_mute_by_name(
            context, sink, muted ? 1 : 0,
            { _, success, userdata in
                let answer = Answer.of(userdata)
                answer.succeeded = success != 0
                answer.done = true
            }, answer.pointer)
        return finish(begun, answer) && answer.succeeded
    }

    private func finish(_ operation: OpaquePointer?, _ answer: Answer) -> Bool {
        guard let operation else { return false }
        defer { pa_operation_unref(operation) }
        return withExtendedLifetime(answer) { wait(until: { answer.done }) }
    }

    /// Runs the loop until `done`, the connection fails, or the server has been silent too long.
    private func wait(until done: () -> Bool) -> Bool {
        let deadline = Self.microsecondsNow() + Self.patienceMicroseconds
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
        var muted: Bool?
        var succeeded = false
        var pointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
        static func of(_ pointer: UnsafeMutableRawPointer?) -> Answer { Unmanaged<Answer>.fromOpaque(pointer!).takeUnretainedValue() }
    }
}
