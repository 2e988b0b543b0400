/// How a typed text's line breaks reach the focused window. A spoken "new line" is a lone `"\n"` (typed as Return),
/// which in a terminal would run the line before it: there, and wherever the focused program cannot be told, each
/// run of them is typed as one space. "press enter" writes `"\r\n"`, Return asked for by name, typed as Return
/// everywhere.
public enum NewLines: Sendable, Equatable {
    /// Typed as Return: the text had none, or the window is not a terminal's.
    case kept
    /// Typed as spaces: the focused window is this terminal's.
    case spacesInTerminal(String)
    /// Typed as spaces: which program has the focus cannot be told in this session.
    case spacesForUnknownWindow

    /// `text` as it is typed where `focus` tells the focused program (nil: nothing can tell it), and which way its
    /// line breaks went. The focus is asked only when the text holds a spoken line break.
    static func typed(_ text: String, focus: (any FocusReading)?) async -> (text: String, newLines: NewLines) {
        let scalars = Array(text.unicodeScalars)
        guard scalars.indices.contains(where: { isSpokenLineBreak(at: $0, in: scalars) }) else {
            return (asReturns(scalars, spaces: false), .kept)
        }
        let newLines: NewLines =
            switch await focus?.focused() {
            case .terminal(let name): .spacesInTerminal(name)
            case .other: .kept
            case .unknown, nil: .spacesForUnknownWindow
            }
        return (asReturns(scalars, spaces: newLines != .kept), newLines)
    }

    /// `text` with every line break as `"\n"`: on the clipboard, where none runs anything until the user pastes it.
    static func asLineBreaks(_ text: String) -> String { asReturns(Array(text.unicodeScalars), spaces: false) }

    /// A `"\n"` not after a `"\r"`, or a lone `"\r"`: written by "new line", not by "press enter".
    private static func isSpokenLineBreak(at index: Int, in scalars: [Unicode.Scalar]) -> Bool {
        switch scalars[index] {
        case "\n": index == 0 || scalars[index - 1] != "\r"
        case "\r": index + 1 == scalars.count || scalars[index + 1] != "\n"
        default: false
        }
    }

    /// The text with each `"\r\n"` as the `"\n"` that every typing way types as Return, and each run of spoken line
    /// breaks as a `"\n"` each or, with `spaces`, one space.
    private static func asReturns(_ scalars: [Unicode.Scalar], spaces: Bool) -> String {
        var typed = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            if scalar == "\r", index + 1 < scalars.count, scalars[index + 1] == "\n" { continue }
            guard isSpokenLineBreak(at: index, in: scalars) else {
                typed.append(scalar)
                continue
            }
            if !spaces {
                typed.append("\n")
            } else if index == 0 || !isSpokenLineBreak(at: index - 1, in: scalars) {
                typed.append(" ")
            }
        }
        return String(typed)
    }
}
