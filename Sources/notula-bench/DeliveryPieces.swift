import Delivering
import Foundation
import NotulaTestSupport
import Synchronization

/// The texts the delivery bench types, the programs it starts as peers, and its report.
extension Delivery {
    // MARK: The pieces

    /// `count` characters of dictation-like text: lower-case ASCII words, sentences opened by a capital and closed
    /// by a full stop, a comma now and then. Every `seed` gives another text, so that a clipboard never already
    /// holds the one measured.
    static func dictation(_ count: Int, seed: Int) -> String {
        let words = [
            "the", "meeting", "starts", "at", "nine", "tomorrow", "and", "we", "will", "review", "budget", "for", "next",
            "quarter", "please", "send", "notes", "before", "lunch", "so", "everyone", "can", "read", "them", "first",
            "project", "plan", "looks", "good", "but", "schedule", "needs", "more", "time", "testing",
        ]
        var state = UInt64(seed) &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var text = ""
        while text.count < count {
            let length = 6 + next(9)
            var sentence = (0..<length).map { _ in words[next(words.count)] }
            sentence[0] = sentence[0].prefix(1).uppercased() + sentence[0].dropFirst()
            if length > 9 { sentence[length / 2] += "," }
            text += sentence.joined(separator: " ") + ". "
        }
        return String(text.prefix(count))
    }

    /// What `PortalKeyboard` waits by design for `text`, typing nothing else: 10 ms after each key event, 60 ms
    /// before and after a key pressed under a modifier (a capital, a symbol), and one warm-up key.
    static func portalPauses(_ text: String) -> Duration {
        let keyInterval = Duration.milliseconds(10)
        let modifierPause = Duration.milliseconds(60)
        return text.unicodeScalars.reduce(keyInterval * 2) { total, scalar in
            switch scalar {
            case "a"..."z", "0"..."9", " ", ",", ".": total + keyInterval * 2
            default: total + modifierPause * 2 + keyInterval
            }
        }
    }

    static func installed(_ programs: String...) -> Bool {
        programs.allSatisfy { FileManager.default.isExecutableFile(atPath: "/usr/bin/\($0)") }
    }

    /// Starts `path` with `arguments` and only `environment`, its output discarded.
    /// - Returns: its process ID, to reap it with `hasEnded`.
    static func start(_ path: String, _ arguments: [String], _ environment: [String: String]) throws -> pid_t {
        try spawn([path] + arguments, environment: environment)
    }

    /// Whether the program has exited, reaping it if so. A copier's parent exits once its child serves the clipboard.
    static func hasEnded(_ processID: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(processID, &status, WNOHANG) != 0
    }

    /// What a paste would give now, or "" while the clipboard is empty. Started with `posix_spawn` and read through a
    /// pipe: a reader that took longer than the copy would hide it.
    static func pasted(_ command: [String], _ environment: [String: String]) -> String {
        guard let (processID, output) = try? spawnReading(command, environment: environment) else { return "" }
        defer { close(output) }
        var read: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(output, &buffer, buffer.count)
            if count > 0 { read += buffer[..<count] } else if count == 0 || errno != EINTR { break }
        }
        var status: Int32 = 0
        while waitpid(processID, &status, 0) == -1 && errno == EINTR {}
        return String(decoding: read, as: UTF8.self)
    }

    // MARK: The report

    static func report(_ rows: [Row], missing: [String], quick: Bool) -> String {
        let table = rows.map { row in
            let reference = row.peerTime ?? row.floor ?? .zero
            let ratio = reference > .zero ? fixed(row.ours.seconds / reference.seconds, 2) : "–"
            return "| \(row.method) | \(row.characters) | **\(fixed(row.ours.seconds, 3)) s** | \(row.peer): "
                + "\(fixed(reference.seconds, 3)) s\(row.floor != nil ? " (computed)" : "") | \(ratio) | "
                + "\(Int((Double(row.characters) / row.ours.seconds).rounded())) | \(row.rounds) | \(goal(row)) |"
        }
        let notMeasured = missing.map { "- not measured: \($0)" }
        return """
            ## Dictation delivery

            From the call to the moment the client holds the whole text (a terminal's file, the entry's file, what a \
            paste returns; read every \(Int(pollInterval.seconds * 1000)) ms), medians. The peer is the same tool \
            run directly by the bench as a plain process, the text as its argument, into the same client: the ratio \
            is what our delivery adds; for paste, the peer is typing the same text with the session's tool, and the \
            ratio what pasting saves (on KDE, against the portal's pauses for typing it). The portal has no such tool: its reference is the pauses it makes by design \
            (10 ms after each key event, 60 ms around a capital), computed, not measured. Text: lower-case ASCII \
            words in sentences, a capital and a full stop each; for the portal's paste (GNOME 48) it opens with an \
            É, which no key types, so that even the short text goes through the session's clipboard. \
            \(quick ? "A quick run: 20 and 200 characters only." : "")

            | method → client | characters | ours | peer | ours ÷ peer | characters/s | rounds | goal |
            |---|---|---|---|---|---|---|---|
            \(table.joined(separator: "\n"))
            \(notMeasured.joined(separator: "\n"))
            """
    }

    /// Issue 16's goal where it has one: 200 characters within 0.3 s, 2 000 within 1 s.
    static func goal(_ row: Row) -> String {
        let bound: Double? = row.characters == 200 ? 0.3 : row.characters == 2_000 ? 1 : nil
        guard let bound else { return "" }
        return row.ours.seconds <= bound ? "≤ \(fixed(bound, 1)) s: met" : "≤ \(fixed(bound, 1)) s: **not met**"
    }
}
