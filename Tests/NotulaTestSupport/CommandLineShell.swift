import Foundation

/// An interactive bash for a terminal window to run, which tells what sits on its command line: Ctrl+T writes the
/// line readline holds, unrun, to a file. A test types into it and then presses Ctrl+T: the file says what arrived,
/// and whatever a Return would have run has run before readline reads the Ctrl+T behind it.
public struct CommandLineShell: Sendable {
    /// Where the shell's files are: its startup file, `ready` once it reads its first line, `line` at each Ctrl+T.
    public let folder: String

    /// Writes the startup file into `folder`, which the terminal's user may write to.
    public init(folder: String) throws {
        self.folder = folder
        let startup = """
            PS1='$ '
            cd \(folder)
            bind -x '"\\C-t": printf "%s" "$READLINE_LINE" > \(folder)/line.new && mv \(folder)/line.new \(folder)/line'
            : > \(folder)/ready

            """
        try Data(startup.utf8).write(to: URL(fileURLWithPath: "\(folder)/bashrc"))
    }

    /// The command a terminal runs it with.
    public var command: [String] { ["bash", "--noprofile", "--rcfile", "\(folder)/bashrc", "-i"] }

    /// Exists once the shell is reading its first command line.
    public var readyFile: String { "\(folder)/ready" }

    /// What its command line held at the last Ctrl+T; nil before one.
    public func commandLine() -> String? { try? String(contentsOfFile: "\(folder)/line", encoding: .utf8) }
}
