import Dispatch
import Glibc
import Recording
import Synchronization

/// `muteOutput`: the sink the user hears (`$PULSE_SINK`, or the server's default) muted while a
/// recording runs, and unmuted when it ends — only if Notula muted it, and only while it is still as Notula left it.
///
/// The sink muted is written to a file first, with its volume, so that a notulad killed meanwhile unmutes it at its
/// next start: never a user's speakers left muted by Notula. PulseAudio keeps no owner of a mute, so a sink is Notula's
/// to unmute only while nothing changed it: while Notula holds it muted, a connection watches it, and the user's
/// own unmute (or a volume change) hands it back to them; after a crash, a sink found unmuted, or at another volume
/// than the file says, is left as it is. (A user who unmuted and muted again at the same volume while no notulad ran
/// cannot be told apart.) Requests run on a queue of their own, in the order the recording changed.
public final class OutputMute: Sendable {
    private let record: String
    private let server: String?
    private let chosenSink: String?
    private let log: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "org.notula.output-mute")
    private let capturing = Mutex(false)
    /// The watch of the sink Notula holds muted, one at a time.
    private let watching = DispatchQueue(label: "org.notula.output-mute-watch")
    /// Set to end that watch; a new flag for each.
    private let watchEnd = Mutex<WatchEnd?>(nil)

    private final class WatchEnd: Sendable {
        let flag = Atomic<Bool>(false)
    }

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
        guard let sink = chosenSink ?? requests.defaultSink(), let before = requests.state(of: sink) else {
            return log("No output to mute: the sound server names no sink")
        }
        // Muted by the user already: theirs to unmute, not ours.
        guard !before.muted else { return log("\(sink) is muted already: left as the user set it") }
        let muted = MutedSink(name: sink, volume: before.volume)
        do throws(FileError) {
            try PrivateFiles.replace(record, with: MutedSink.lines(Array(Self.read(record).suffix(15)) + [muted]))
        } catch {
            return log("Not muting the output: cannot note what to unmute (\(error))")
        }
        guard requests.setMuted(sink, true) else { return }
        log("Muted \(sink) while recording")
        watch(muted)
    }

    /// Watches `muted` on a thread of its own until `unmute` ends the watch: should the user unmute it or change its
    /// volume meanwhile, it is theirs from then on.
    private func watch(_ muted: MutedSink) {
        let end = WatchEnd()
        watchEnd.withLock { $0 = end }
        watching.async { [self] in
            guard let connection = ShortConnection(server: server, name: "Notula") else { return }
            let expected = SinkState(muted: true, volume: muted.volume ?? [])
            connection.watch(muted.name, until: { end.flag.load(ordering: .acquiring) }) { state in
                guard state != expected else { return false }
                // A sink gone (a headset unplugged) is not the user's change: it stays noted.
                if state != nil { queue.async { self.handBack(muted.name) } }
                return true
            }
        }
    }

    private func endWatch() {
        watchEnd.withLock { $0?.flag.store(true, ordering: .releasing) }
    }

    /// The user changed a sink Notula holds muted: it is no longer Notula's to unmute.
    private func handBack(_ sink: String) {
        let noted = Self.read(record)
        guard noted.contains(where: { $0.name == sink }) else { return }
        forget(noted, keeping: noted.filter { $0.name != sink })
        log("\(sink) was changed by the user while muted for the recording: left as they set it")
    }

    /// Unmutes every sink the record names that is still as Notula left it; those the server cannot reach now stay in
    /// it for the next try.
    private func unmute() {
        endWatch()
        let noted = Self.read(record)
        guard !noted.isEmpty else { return }
        let requests = ShortConnection(server: server, name: "Notula")
        var unreachable = 0
        let left = noted.filter { sink in
            guard let requests, let state = requests.state(of: sink.name) else {
                unreachable += 1
                return true
            }
            guard state.muted, sink.volume.map({ $0 == state.volume }) ?? true else {
                log("\(sink.name) was changed since Notula muted it: left as it is")
                return false
            }
            guard requests.setMuted(sink.name, false) else {
                unreachable += 1
                return true
            }
            log("Unmuted \(sink.name)")
            return false
        }
        if unreachable > 0 {
            log("Cannot unmute \(left.map(\.name).joined(separator: ", ")) now: trying again at the next recording or start")
        }
        forget(noted, keeping: left)
    }

    /// Writes the record again with only `left`, or removes it when nothing is left.
    private func forget(_ noted: [MutedSink], keeping left: [MutedSink]) {
        guard left != noted else { return }
        if left.isEmpty {
            unlink(record)
        } else {
            try? PrivateFiles.replace(record, with: MutedSink.lines(left))
        }
    }

    /// The sinks named in the record, one a line; at most a few hundred bytes are read.
    private static func read(_ path: String) -> [MutedSink] {
        guard let file = fopen(path, "re") else { return [] }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = fread(&buffer, 1, buffer.count, file)
        return String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").map(MutedSink.init(line:))
    }
}

/// A line of the record: the sink's name and, after a tab, the volume of each of its channels when Notula muted it.
/// A line with no volume (written by an earlier notulad) is unmuted if it is still muted.
private struct MutedSink: Equatable {
    let name: String
    let volume: [UInt32]?

    init(name: String, volume: [UInt32]) {
        self.name = name
        self.volume = volume
    }

    init(line: Substring) {
        let fields = line.split(separator: "\t", maxSplits: 1)
        name = String(fields[0])
        volume = fields.count == 2 ? fields[1].split(separator: ",").compactMap { UInt32($0) } : nil
    }

    static func lines(_ sinks: [MutedSink]) -> [UInt8] {
        let lines = sinks.map { $0.name + ($0.volume.map { "\t" + $0.map(String.init).joined(separator: ",") } ?? "") }
        return Array(lines.joined(separator: "\n").utf8)
    }
}
