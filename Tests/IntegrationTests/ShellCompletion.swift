import Foundation
import NotulaTestSupport

/// One shell's completion of `notula` (completions/), asked what it offers after some typed words.
enum ShellCompletion: String, CaseIterable, CustomStringConvertible {
    case bash, zsh, fish

    var description: String { rawValue }

    var file: URL {
        let name = ["bash": "notula", "zsh": "_notula", "fish": "notula.fish"][rawValue]!
        return packageRoot.appendingPathComponent("completions/\(name)")
    }

    /// What the shell offers for the word `current` after `notula` and `typed`, sorted, without descriptions.
    /// zsh's is asked of an interactive zsh in a pseudo-terminal, on Tab (Tests/shell-completion).
    func offers(after typed: [String], current: String = "", environment: [String: String]) throws -> [String] {
        let script: String
        switch self {
        case .bash:
            script = """
                source "$0"; COMP_WORDS=(notula "$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _notula
                printf '%s\\n' "${COMPREPLY[@]}"
                """
        case .zsh:
            script = packageRoot.appendingPathComponent("Tests/shell-completion/complete-in-zsh.zsh").path
        case .fish:
            script = "source $argv[1]; complete -C (string join ' ' -- notula $argv[2..-1])"
        }
        // No start-up files of the user's: the shell as a package's completion meets it first.
        let options = ["bash": ["--norc", "--noprofile", "-c"], "zsh": ["-f"], "fish": ["--no-config", "-c"]][rawValue]!
        // Bounded: a shell waiting for its pseudo-terminal would otherwise hold the suite forever.
        let result = try run("timeout", ["60", rawValue] + options + [script, file.path] + typed + [current], environment: environment)
        guard result.status == 0, result.errorOutput.isEmpty else {
            throw CompletionFailed(shell: self, typed: typed, status: result.status, errorOutput: result.errorOutput)
        }
        return result.output.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }.filter { !$0.isEmpty }.sorted()
    }

    /// Whether the shell is here to be asked; the reason it is not, printed, when not.
    var isInstalled: Bool {
        let found = (try? run("sh", ["-c", "command -v \(rawValue)"]).status) == 0
        if !found { print("Skipping \(rawValue)'s completion: \(rawValue) is not installed (make test-deps installs it)") }
        return found
    }
}

/// A shell that failed, or complained, while completing.
struct CompletionFailed: Error, CustomStringConvertible {
    let shell: ShellCompletion
    let typed: [String]
    let status: Int32
    let errorOutput: String
    var description: String { "\(shell) completing notula \(typed.joined(separator: " ")) exited with \(status): \(errorOutput)" }
}
