import Dispatch
import Glibc
import Recording
import Synchronization

/// `muteOutput`: the sink the user hears (`$PULSE_SINK`, or the server's default) muted while a
/// recording runs, and unmuted when it ends — only if Notula muted it.
///
/// The sink muted is written to a file first, so that a notulad killed meanwhile unmutes it at its
/// next start: never a user's speakers left muted by Notula. Requests run on a queue of their own,
/// in the order the recording changed.
public final class OutputMute: Sendable {
    private let record: String
    private let server: String?
    private let chosenSink: String?
    private let log: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "org.notula.output-mute")
    private let capturing = Mutex(false)

    /// - Parameters:
    ///   - record: the file naming the sink Notula muted, while it is.
    ///   - chosenSink: the sink to mute (`$PULSE_SINK`); nil: the server's default sink.
    public init(record: String, server: String?, chosenSink: String?, log: @escaping @Sendable (String) -> Void) {
        self.record = record
        self.server = server
        self.chosenSink = chosenSink
        self.log = log
    }

    /// Unmutes a sink a previous notulad muted and could not unmute (killed, or the server was away).
    public func restoreLeftMuted() {
        queue.async { self.unmute() }
    }

    /// Unmutes what this notulad muted, at its exit: returns once tried.
    public func restoreAtExit() async {
        await queue.perform { self.unmute() }
    }

    /// Told of each state: muting when a recording begins, unmuting when it ends.
    public func heard(_ state: RecordingState) {
        let now = state.isCapturing
        let changed = capturing.withLock { capturing in
            defer { capturing = now }
            return capturing != now
        }
        guard changed else { return }
        queue.async { now ? self.mute() : self.unmute() }
    }

    private func mute() {
        // A sink a crash or an absence left muted comes first: it is unmuted before any other is muted.
        unmute()
        guard let requests = ShortConnection(server: server, name: "Notula") else {
            return log("Cannot reach the sound server to mute the output")
        }
        guard let sink = chosenSink ?? requests.defaultSink(), let muted = requests.isMuted(sink) else {
            return log("No output to mute: the sound server names no sink")
        }
        // Muted by the user already: theirs to unmute, not ours.
        guard !muted else { return log("\(sink) is muted already: left as the user set it") }
        do throws(FileError) {
            try PrivateFiles.replace(record, with: Array((Self.read(record).suffix(15) + [sink]).joined(separator: "\n").utf8))
        } catch {
            return log("Not muting the output: cannot note what to unmute (\(error))")
        }
        if requests.setMuted(sink, true) { log("Muted \(sink) while recording") }
    }

    /// Unmutes every sink the record names; those the server cannot reach now stay in it for the next try.
    private func unmute() {
        let noted = Self.read(record)
        guard !noted.isEmpty else { return }
        let requests = ShortConnection(server: server, name: "Notula")
        let left = noted.filter { sink in
            guard let requests, requests.isMuted(sink) != nil, requests.setMuted(sink, false) else { return true }
            log("Unmuted \(sink)")
            return false
        }
        guard left != noted else {
            return log("Cannot unmute \(noted.joined(separator: ", ")) now: trying again at the next recording or start")
        }
        if left.isEmpty {
            unlink(record)
        } else {
            try? PrivateFiles.replace(record, with: Array(left.joined(separator: "\n").utf8))
        }
    }

    /// The sinks named in the record, one a line; at most a few hundred bytes are read.
    private static func read(_ path: String) -> [String] {
        guard let file = fopen(path, "re") else { return [] }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = fread(&buffer, 1, buffer.count, file)
        return String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
