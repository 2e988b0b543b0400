/// Leaves the text on the clipboard for the user to paste: on Wayland through the data-control protocol (`wl-copy`),
/// on X11 with `xclip`. Both fork a child that serves the clipboard until something else is copied; the delivery
/// ends when the parent exits, which both do once the clipboard is theirs.
public struct ClipboardTarget: TextTarget {
    public var method: DeliveryMethod { .clipboard }

    /// The program that copies, and how it is told to read the text from standard input.
    public enum Copier: Sendable, Equatable {
        /// `wl-copy` from wl-clipboard: Wayland compositors with data-control (wlroots, KDE; not GNOME).
        case wlCopy(HelperProgram)
        /// `xclip`: X11.
        case xclip(HelperProgram)

        var program: HelperProgram {
            switch self {
            case .wlCopy(let program), .xclip(let program): program
            }
        }

        var arguments: [String] {
            switch self {
            // The type as GTK asks for it; wl-copy offers text/plain, UTF8_STRING, TEXT and STRING with it.
            case .wlCopy: ["--type", "text/plain;charset=utf-8"]
            // xclip offers UTF8_STRING by default.
            case .xclip: ["-selection", "clipboard", "-in"]
            }
        }

        /// The arguments that offer `type`: the text types with their aliases, as `arguments` does, or `type` alone.
        func arguments(offering type: String) -> [String] {
            guard !ClipboardContents.textTypes.contains(type) else { return arguments }
            return switch self {
            case .wlCopy: ["--type", type]
            case .xclip: ["-selection", "clipboard", "-in", "-target", type]
            }
        }
    }

    private let copier: Copier
    private let session: DesktopSession
    private let timeLimit: Duration

    /// - Parameters:
    ///   - copier: the program, found when the session was probed.
    ///   - session: whose displays reach the clipboard.
    ///   - timeLimit: how long the copier may take before it is killed as hung.
    public init(copier: Copier, session: DesktopSession, timeLimit: Duration = .seconds(10)) {
        self.copier = copier
        self.session = session
        self.timeLimit = timeLimit
    }

    public func deliver(_ text: String) async throws(DeliveryError) {
        let program = copier.program
        let ending = try await program.run(copier.arguments, input: text, environment: session.environment, timeLimit: timeLimit)
        guard ending.status == 0 else {
            throw DeliveryError(
                "\(program.name) could not put the text on the clipboard: "
                    + ending.failure)
        }
    }
}
