import Delivering
import Foundation
import NotulaTestSupport
import Synchronization

/// How long dictated text takes to reach a real client through each way of delivering it: from the call to the
/// moment the client holds all of it, against the same tool run directly by the bench (what our delivery adds).
///
/// Each host starts once: foot in a headless sway (wtype, wl-copy), xterm on Xvfb (xdotool, xclip), a GTK4 entry on
/// GNOME Shell 43 (the RemoteDesktop portal). A method whose host or programs are missing gets a line saying so.
enum Delivery {
    /// One way of delivering into one client, measured against its peer.
    private struct Method {
        let name: String
        let target: any TextTarget
        let client: Client
        /// What the ratio is taken against: the tool run directly, or a floor computed from the text.
        let peer: Peer
        let sizes: [Int]
        /// A copy takes milliseconds: more rounds, as they cost nothing.
        var isCheap = false

        func rounds(of size: Int) -> Int { isCheap ? 9 : size >= 2_000 ? 1 : 3 }
    }

    /// Where the text arrives, read as a user would see it.
    private struct Client {
        let read: () -> String
        /// A terminal or an entry holds every text typed so far; a clipboard only the last.
        let accumulates: Bool
    }

    private enum Peer {
        /// The tool started as a plain process, given the text.
        case direct(label: String, start: (String) throws -> pid_t)
        /// A lower bound for the time, not measured: the pauses the method makes by design.
        case floor(label: String, of: (String) -> Duration)

        var label: String {
            switch self {
            case .direct(let label, _), .floor(let label, _): label
            }
        }
    }

    private struct Row {
        let method: String
        let peer: String
        let characters: Int
        let rounds: Int
        let ours: Duration
        let peerTime: Duration?
        let floor: Duration?
    }

    static let pollInterval = Duration.milliseconds(2)

    /// Measures every method available here; `quick`: 20 and 200 characters only.
    static func run(quick: Bool) async -> String {
        let sizes = quick ? [20, 200] : [20, 200, 2_000]
        var rows: [Row] = []
        var missing: [String] = []
        await measureSway(sizes: sizes, into: &rows, missing: &missing)
        await measureXvfb(sizes: sizes, into: &rows, missing: &missing)
        await measurePortal(sizes: sizes.filter { $0 <= 200 }, into: &rows, missing: &missing)
        return report(rows, missing: missing, quick: quick)
    }

    // MARK: The hosts

    private static func measureSway(sizes: [Int], into rows: inout [Row], missing: inout [String]) async {
        guard installed("sway", "foot", "wtype", "wl-copy", "wl-paste") else {
            missing.append("virtual-keyboard and wl-copy: needs sway, foot, wtype and wl-clipboard")
            return
        }
        do {
            progress("delivery: wtype and wl-copy into foot on a headless sway")
            let sway = try await TerminalsInSway()
            let session = DesktopSession(
                environment: sway.environment.merging(["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "sway"]) { $1 })
            let targets = HelperTargets(session: session, searchPath: "/usr/bin:/bin")
            let terminal = try await sway.openTerminal()
            let environment = session.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 }
            rows += try await measure(
                Method(
                    name: "virtual-keyboard: wtype → foot (sway)", target: try targets.virtualKeyboard().get(),
                    client: Client(read: terminal.typed, accumulates: true),
                    peer: .direct(label: "`wtype TEXT`", start: { try start("/usr/bin/wtype", [$0], environment) }),
                    sizes: sizes))
            rows += try await measure(
                Method(
                    name: "clipboard: wl-copy → wl-paste (sway)", target: try targets.clipboard().get(),
                    client: Client(read: { pasted(["/usr/bin/wl-paste", "--no-newline"], environment) }, accumulates: false),
                    peer: .direct(label: "`wl-copy TEXT`", start: { try start("/usr/bin/wl-copy", [$0], environment) }),
                    sizes: sizes, isCheap: true))
            // Against typing the same text, which pasting replaces for long texts.
            rows += try await measure(
                Method(
                    name: "paste: wl-copy once, Ctrl+Shift+V → foot (sway)", target: try targets.paste().get(),
                    client: Client(read: terminal.typed, accumulates: true),
                    peer: .direct(label: "`wtype TEXT`", start: { try start("/usr/bin/wtype", [$0], environment) }),
                    sizes: sizes))
            try? sway.close(terminal)
        } catch {
            missing.append("virtual-keyboard and wl-copy: \(error)")
        }
    }

    private static func measureXvfb(sizes: [Int], into rows: inout [Row], missing: inout [String]) async {
        guard installed("Xvfb", "xterm", "xdotool", "xclip") else {
            missing.append("xtest and xclip: needs Xvfb, xterm, xdotool and xclip")
            return
        }
        do {
            progress("delivery: xdotool and xclip into xterm on Xvfb")
            let xvfb = try TerminalsUnderXvfb()
            let session = DesktopSession(environment: xvfb.environment.merging(["XDG_SESSION_TYPE": "x11"]) { $1 })
            let targets = HelperTargets(session: session, searchPath: "/usr/bin:/bin")
            // As a user's ~/.Xresources must set it for xterm to paste the clipboard on a key.
            let terminal = try await xvfb.openTerminal(resources: [
                "XTerm*VT100.translations: #override Shift Ctrl <Key>V: insert-selection(CLIPBOARD)"
            ])
            let environment = session.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 }
            rows += try await measure(
                Method(
                    name: "xtest: xdotool → xterm (Xvfb)", target: try targets.xtest().get(),
                    client: Client(read: terminal.typed, accumulates: true),
                    peer: .direct(
                        label: "`xdotool type TEXT`", start: { try start("/usr/bin/xdotool", ["type", $0], environment) }),
                    sizes: sizes))
            rows += try await measure(
                Method(
                    name: "paste: xclip once, Ctrl+Shift+V → xterm (Xvfb)", target: try targets.paste().get(),
                    client: Client(read: terminal.typed, accumulates: true),
                    peer: .direct(
                        label: "`xdotool type TEXT`", start: { try start("/usr/bin/xdotool", ["type", $0], environment) }),
                    sizes: sizes))
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("notula-bench-xclip-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: scratch) }
            rows += try await measure(
                Method(
                    name: "clipboard: xclip → xclip -o (Xvfb)", target: try targets.clipboard().get(),
                    client: Client(
                        read: { pasted(["/usr/bin/xclip", "-selection", "clipboard", "-o"], environment) }, accumulates: false),
                    peer: .direct(
                        label: "`xclip -selection clipboard FILE`",
                        start: {
                            try Data($0.utf8).write(to: scratch)
                            return try start("/usr/bin/xclip", ["-selection", "clipboard", scratch.path], environment)
                        }),
                    sizes: sizes, isCheap: true))
        } catch {
            missing.append("xtest and xclip: \(error)")
        }
    }

    private static func measurePortal(sizes: [Int], into rows: inout [Row], missing: inout [String]) async {
        progress("delivery: the RemoteDesktop portal into a GTK4 entry on GNOME Shell 43")
        switch await GnomeShellHost.shared() {
        case .failure(let unavailable):
            missing.append("portal: \(unavailable.reason)")
        case .success(let host):
            do {
                let entry = try await host.openTypingTarget()
                let bus = try await host.connect()
                let keyboard = PortalKeyboard(
                    bus: bus, restoreTokenFile: "/nonexistent/notula-bench/restore-token", consentTimeout: .seconds(60))
                // The first delivery opens the session: the dialog, answered once, is not part of the figures.
                let answer = try host.answerRemoteDesktopDialog(.allow)
                try await keyboard.deliver("Hello. ")
                try await answer.answered()
                rows += try await measure(
                    Method(
                        name: "portal: RemoteDesktop → GTK4 entry (GNOME Shell 43)", target: keyboard,
                        client: Client(read: { entry.text }, accumulates: true),
                        peer: .floor(label: "its pauses alone", of: portalPauses), sizes: sizes),
                    warmUp: false)
                await bus.close()
            } catch {
                missing.append("portal: \(error)")
            }
        }
    }

    // MARK: Measuring

    /// Each size's rounds, ours and the peer's interleaved (who goes first alternates), after a round of each that
    /// is not counted: the first keys of a client, the first run of a program.
    private static func measure(_ method: Method, warmUp: Bool = true) async throws -> [Row] {
        var seed = 0
        func nextText(_ count: Int) -> String {
            seed += 1
            return dictation(count, seed: seed)
        }
        if warmUp {
            _ = try await arrival(of: nextText(20), in: method.client, deliveredTo: method.target)
            if case .direct(_, let start) = method.peer {
                _ = try await arrival(of: nextText(20), in: method.client, byStarting: start)
            }
        }
        var rows: [Row] = []
        for size in method.sizes {
            let rounds = method.rounds(of: size)
            progress("delivery: \(method.name), \(size) characters, \(rounds) rounds")
            var ours: [Duration] = []
            var peers: [Duration] = []
            var floors: [Duration] = []
            for round in 0..<rounds {
                let peerFirst = round % 2 == 1
                if peerFirst, case .direct(_, let start) = method.peer {
                    peers.append(try await arrival(of: nextText(size), in: method.client, byStarting: start))
                }
                let text = nextText(size)
                ours.append(try await arrival(of: text, in: method.client, deliveredTo: method.target))
                if case .floor(_, let floor) = method.peer { floors.append(floor(text)) }
                if !peerFirst, case .direct(_, let start) = method.peer {
                    peers.append(try await arrival(of: nextText(size), in: method.client, byStarting: start))
                }
            }
            rows.append(
                Row(
                    method: method.name, peer: method.peer.label, characters: size, rounds: rounds, ours: Latencies(ours).median,
                    peerTime: peers.isEmpty ? nil : Latencies(peers).median, floor: floors.isEmpty ? nil : Latencies(floors).median))
        }
        return rows
    }

    /// The time from starting the tool directly to the moment the client holds all of `text`; then waits for the
    /// program to end, so that the next round starts alone.
    private static func arrival(of text: String, in client: Client, byStarting start: (String) throws -> pid_t) async throws -> Duration {
        var processID: pid_t = 0
        let time = try await arrival(of: text, in: client, startedBy: { processID = try start($0) })
        while !hasEnded(processID) { try await Task.sleep(for: pollInterval) }
        return time
    }

    /// The time from the call to `target.deliver` to the moment the client holds all of `text`.
    private static func arrival(of text: String, in client: Client, deliveredTo target: any TextTarget) async throws -> Duration {
        let failure = Failure()
        var delivery: Task<Void, Never>?
        defer { delivery?.cancel() }
        let time = try await arrival(
            of: text, in: client,
            startedBy: { text in
                delivery = Task {
                    do { try await target.deliver(text) } catch { failure.message.withLock { $0 = "\(error)" } }
                }
            }, failed: { failure.message.withLock { $0 } })
        await delivery?.value
        if let message = failure.message.withLock({ $0 }) { throw DeliveryFailed(message: message) }
        return time
    }

    /// The time from `start`'s call to the moment the client holds all of `text`, its content read every 2 ms.
    /// - Parameter failed: why the delivery stopped, once it has.
    private static func arrival(
        of text: String, in client: Client, startedBy start: (String) throws -> Void, failed: () -> String? = { nil }
    ) async throws -> Duration {
        let expected = (client.accumulates ? client.read() : "") + text
        let clock = ContinuousClock()
        let began = clock.now
        try start(text)
        let bound = Duration.seconds(10) + .milliseconds(60) * text.count
        while client.read() != expected {
            if let message = failed() { throw DeliveryFailed(message: message) }
            guard clock.now - began < bound else {
                throw DeliveryFailed(message: "\(text.count) characters did not arrive whole within \(bound)")
            }
            try await Task.sleep(for: pollInterval)
        }
        return clock.now - began
    }

    /// Why a delivery running in a task of its own failed, read by the loop that waits for its text.
    private final class Failure: Sendable {
        let message = Mutex<String?>(nil)
    }

    struct DeliveryFailed: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

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

    /// What `PortalKeyboard` waits by design for `text`, typing nothing else: 10 ms after each key event, 40 ms
    /// before and after a key pressed under a modifier (a capital, a symbol), and one warm-up key.
    static func portalPauses(_ text: String) -> Duration {
        let keyInterval = Duration.milliseconds(10)
        let modifierPause = Duration.milliseconds(40)
        return text.unicodeScalars.reduce(keyInterval * 2) { total, scalar in
            switch scalar {
            case "a"..."z", "0"..."9", " ", ",", ".": total + keyInterval * 2
            default: total + modifierPause * 2 + keyInterval
            }
        }
    }

    private static func installed(_ programs: String...) -> Bool {
        programs.allSatisfy { FileManager.default.isExecutableFile(atPath: "/usr/bin/\($0)") }
    }

    /// Starts `path` with `arguments` and only `environment`, its output discarded, as a shell would: `posix_spawn`,
    /// no more (Foundation's `Process` spends tens of milliseconds of its own on a start).
    /// - Returns: its process ID, to reap it with `hasEnded`.
    private static func start(_ path: String, _ arguments: [String], _ environment: [String: String]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for output: Int32 in [1, 2] { posix_spawn_file_actions_addopen(&actions, output, "/dev/null", O_WRONLY, 0) }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var processID: pid_t = 0
        let result = posix_spawn(&processID, path, &actions, nil, argv, envp)
        guard result == 0 else { throw DeliveryFailed(message: "\(path) could not be started: \(String(cString: strerror(result)))") }
        return processID
    }

    /// Whether the program has exited, reaping it if so. A copier's parent exits once its child serves the clipboard.
    private static func hasEnded(_ processID: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(processID, &status, WNOHANG) != 0
    }

    /// What a paste would give now, or "" while the clipboard is empty. Started with `posix_spawn` and read through a
    /// pipe: a reader that took longer than the copy would hide it.
    private static func pasted(_ command: [String], _ environment: [String: String]) -> String {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return "" }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var processID: pid_t = 0
        let started = posix_spawn(&processID, command[0], &actions, nil, argv, envp) == 0
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard started else { return "" }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(pipeEnds[0], &buffer, buffer.count)
            if count > 0 { output += buffer[..<count] } else if count == 0 || errno != EINTR { break }
        }
        var status: Int32 = 0
        while waitpid(processID, &status, 0) == -1 && errno == EINTR {}
        return String(decoding: output, as: UTF8.self)
    }

    // MARK: The report

    private static func report(_ rows: [Row], missing: [String], quick: Bool) -> String {
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
            ratio what pasting saves. The portal has no such tool: its reference is the pauses it makes by design \
            (10 ms after each key event, 40 ms around a capital), computed, not measured. Text: lower-case ASCII \
            words in sentences, a capital and a full stop each. \(quick ? "A quick run: 20 and 200 characters only." : portalNote)

            | method → client | characters | ours | peer | ours ÷ peer | characters/s | rounds | goal |
            |---|---|---|---|---|---|---|---|
            \(table.joined(separator: "\n"))
            \(notMeasured.joined(separator: "\n"))
            """
    }

    private static let portalNote = "The portal types 20 and 200 characters only: 2 000 would take ten times the 200's, near a minute."

    /// Issue 16's goal where it has one: 200 characters within 0.3 s, 2 000 within 1 s.
    private static func goal(_ row: Row) -> String {
        let bound: Double? = row.characters == 200 ? 0.3 : row.characters == 2_000 ? 1 : nil
        guard let bound else { return "" }
        return row.ours.seconds <= bound ? "≤ \(fixed(bound, 1)) s: met" : "≤ \(fixed(bound, 1)) s: **not met**"
    }
}
