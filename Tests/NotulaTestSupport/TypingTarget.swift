import Foundation

/// A window with one text entry, focused on a headless desktop: what the user would be typing into. Its text is read
/// from the file it writes at every change. Killed when the value goes.
public final class TypingTarget {
    public enum Toolkit: String {
        case gtk4, qt5

        var client: URL {
            switch self {
            case .gtk4: packageRoot.appendingPathComponent("Tests/gnome-shell-host/typing-target.py")
            case .qt5: packageRoot.appendingPathComponent("Tests/plasma-host/qt-typing-target.py")
            }
        }
    }

    private let file: URL
    private let process: Process
    private let client: URL

    /// Opens the window of `toolkit` and returns once `isFocused` says, of its title, that it has the keyboard focus.
    convenience init(
        _ toolkit: Toolkit, in session: any SessionProcesses, isFocused: @escaping (_ title: String) async throws -> Bool
    ) async throws {
        try await self.init(client: toolkit.client, in: session, isFocused: isFocused)
    }

    /// Opens the window of `client` (a copy of one of `Toolkit`'s, where the session sees it).
    init(client: URL, in session: any SessionProcesses, isFocused: @escaping (_ title: String) async throws -> Bool) async throws {
        self.client = client
        let title = "notula-typing-\(client.deletingPathExtension().lastPathComponent)-\(UUID().uuidString)"
        let file = session.home.appendingPathComponent("\(title).txt")
        self.file = file
        process = try session.sessionProcess(
            ["/usr/bin/env", "QT_QPA_PLATFORM=wayland", "/usr/bin/python3", client.path, file.path, title], log: title)
        try process.run()
        try await poll(within: .seconds(30)) { [process] in
            guard process.isRunning else { throw PeerExited(command: client.lastPathComponent, status: process.terminationStatus) }
            return try await isFocused(title) && FileManager.default.fileExists(atPath: file.path)
        } otherwise: {
            CommandFailed(command: [client.lastPathComponent], status: 0, errorOutput: "its window never got the keyboard focus")
        }
    }

    /// Whether the window titled `title` of `session` marks itself active (see the clients' `.focused` file).
    static func marksItselfFocused(_ title: String, in session: HeadlessSession) -> Bool {
        FileManager.default.fileExists(atPath: session.home.appendingPathComponent("\(title).txt.focused").path)
    }

    deinit { kill(process) }

    /// The entry's text as of now.
    public var text: String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }

    /// How many times the GTK4 entry's text changed so far: a paste is one change, typing one per character.
    public var changes: Int {
        (try? String(contentsOf: file.appendingPathExtension("changes"), encoding: .utf8)).flatMap { Int($0) } ?? 0
    }

    /// Returns once the entry holds exactly `expected`; throws, saying what it holds, when it does not come to.
    public func waitForText(_ expected: String) async throws {
        try await poll(within: .seconds(20)) {
            text == expected
        } otherwise: {
            CommandFailed(
                command: [client.lastPathComponent], status: 0, errorOutput: "expected [\(expected)], the entry holds [\(text)]")
        }
    }
}
