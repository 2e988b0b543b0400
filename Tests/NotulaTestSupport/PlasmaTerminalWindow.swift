import Foundation

extension PlasmaHost {
    /// A terminal a test opens on KWin, by the command that runs a shell in it.
    public enum Terminal: String, Sendable {
        case konsole

        /// The terminal's command, after the signal mask and dispositions the test runner's children inherit are reset
        /// as a session's launcher would leave them: with job-control signals blocked, bash never reads its first line.
        func command(running shell: [String]) -> [String] {
            let reset =
                "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); "
                + "[signal.signal(s, signal.SIG_DFL) for s in (signal.SIGCHLD, signal.SIGPIPE, signal.SIGINT, signal.SIGQUIT, "
                + "signal.SIGTSTP, signal.SIGTTIN, signal.SIGTTOU, signal.SIGTERM, signal.SIGHUP)]; os.execv(sys.argv[1], sys.argv[1:])"
            let terminal =
                switch self {
                case .konsole: ["/usr/bin/env", "QT_QPA_PLATFORM=wayland", "/usr/bin/konsole", "--separate", "-e"] + shell
                }
            return ["/usr/bin/python3", "-c", reset] + terminal
        }
    }

    /// A terminal's window with its shell, closed (the terminal killed) when this goes: KWin gives a later window the
    /// focus only while no terminal a test typed into is left.
    public final class TerminalWindow {
        public let shell: CommandLineShell
        private let process: Process

        init(shell: CommandLineShell, process: Process) {
            self.shell = shell
            self.process = process
        }

        deinit { kill(process) }
    }

    /// Opens `terminal` running a `CommandLineShell` on KWin's Wayland session, as a user starts it, and returns once
    /// the shell reads its first line (KWin focuses a new window).
    public func openTerminalShell(_ terminal: Terminal) async throws -> TerminalWindow {
        let folder = session.home.appendingPathComponent("notula-shell-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let shell = try CommandLineShell(folder: folder.path)
        try session.giveToUser(folder)
        let process = try session.sessionProcess(terminal.command(running: shell.command), log: folder.lastPathComponent)
        try process.run()
        let window = TerminalWindow(shell: shell, process: process)
        try await poll(within: .seconds(30)) {
            FileManager.default.fileExists(atPath: shell.readyFile)
        } otherwise: {
            CommandFailed(
                command: [terminal.rawValue], status: 0, errorOutput: "its bash never read a line (see \(folder.lastPathComponent).log)")
        }
        return window
    }
}
