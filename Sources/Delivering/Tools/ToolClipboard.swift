/// The clipboard through its command-line tools: each type its owner offers read with `wl-paste` or `xclip -out`,
/// and taken with `wl-copy` or `xclip -in`, which offer one type each (the text, with the aliases they add to it, or
/// else the first type) and cannot mark an offer sensitive (Debian 12's wl-copy 2.1.0 has no `--sensitive`).
public struct ToolClipboard: ClipboardOwner {
    enum Tools: Sendable {
        case wayland(wlCopy: HelperProgram, wlPaste: HelperProgram)
        case x11(xclip: HelperProgram)
    }

    let tools: Tools
    /// The session's: the display, the runtime folder.
    let environment: [String: String]

    /// wl-clipboard's `wl-copy` and `wl-paste`: Wayland compositors with data-control (wlroots, KDE; not GNOME).
    public static func wlClipboard(wlCopy: HelperProgram, wlPaste: HelperProgram, environment: [String: String]) -> ToolClipboard {
        ToolClipboard(tools: .wayland(wlCopy: wlCopy, wlPaste: wlPaste), environment: environment)
    }

    /// `xclip`: X11.
    public static func xclip(_ xclip: HelperProgram, environment: [String: String]) -> ToolClipboard {
        ToolClipboard(tools: .x11(xclip: xclip), environment: environment)
    }

    /// How long listing the types may take: wl-paste answers in about 10 ms, but on KWin 5.27 an empty clipboard gets
    /// no answer at all (wl-paste waited until killed), and every paste would wait for it.
    static let listTime = Duration.seconds(1)

    public func types() async -> [String] {
        let (program, arguments) =
            switch tools {
            case .wayland(_, let wlPaste): (wlPaste, ["--list-types"])
            case .x11(let xclip): (xclip, ["-selection", "clipboard", "-out", "-target", "TARGETS"])
            }
        guard let listed = try? await program.run(arguments, input: "", environment: environment, timeLimit: Self.listTime),
            listed.status == 0
        else { return [] }
        return listed.output.split(separator: "\n").map(String.init)
    }

    public func read(_ type: String, limit: Int, timeLimit: Duration) async -> [UInt8]? {
        let (program, arguments) =
            switch tools {
            case .wayland(_, let wlPaste): (wlPaste, ["--no-newline", "--type", type])
            case .x11(let xclip): (xclip, ["-selection", "clipboard", "-out", "-target", type])
            }
        guard
            let read = try? await program.run(
                arguments, input: [], environment: environment, timeLimit: timeLimit, outputLimit: limit + 1),
            read.status == 0, read.outputBytes.count <= limit
        else { return nil }
        return read.outputBytes
    }

    /// Offers one item of `offer`: the text where there is one (every window can paste it), else the first. An empty
    /// offer clears the clipboard on Wayland (X11 has no way to, and the one-time paste's owner is gone once it
    /// served). A one-paste offer is a `OnePasteCopy`; the others are served by the copier's child until something
    /// else is copied.
    public func take(_ offer: ClipboardOffer, timeLimit: Duration) async throws(DeliveryError) -> any ClipboardHolding {
        let item = offer.contents.text.map { ClipboardContents.Item(type: ClipboardContents.textTypes[0], bytes: $0) }
            ?? offer.contents.items.first
        if offer.onePaste, let item {
            return try await OnePasteCopy(
                item.bytes, program: copier, arguments: onePasteArguments(offering: item.type), environment: environment,
                timeLimit: timeLimit)
        }
        let arguments: [String]
        if let item {
            arguments = self.arguments(offering: item.type)
        } else if case .wayland = tools {
            arguments = ["--clear"]
        } else {
            return Lasting()
        }
        let ending = try await copier.run(arguments, input: item?.bytes ?? [], environment: environment, timeLimit: timeLimit)
        guard ending.status == 0 else {
            throw DeliveryError("\(copier.name) could not put the text on the clipboard: \(ending.failure)")
        }
        return Lasting()
    }

    /// A lasting offer, served by the copier's child: when it serves is not told.
    private struct Lasting: ClipboardHolding {
        func served(within timeLimit: Duration) async -> Bool { false }
    }

    private var copier: HelperProgram {
        switch tools {
        case .wayland(let wlCopy, _): wlCopy
        case .x11(let xclip): xclip
        }
    }

    /// The arguments that offer `type`: a text type as the one GTK asks for, with the aliases the copier adds
    /// (wl-copy: text/plain, UTF8_STRING, TEXT, STRING; xclip: UTF8_STRING), or `type` alone.
    private func arguments(offering type: String) -> [String] {
        let isText = ClipboardContents.textTypes.contains(type)
        return switch tools {
        case .wayland: ["--type", isText ? ClipboardContents.textTypes[0] : type]
        case .x11: ["-selection", "clipboard", "-in"] + (isText ? [] : ["-target", type])
        }
    }

    /// The arguments that serve one paste, then exit.
    private func onePasteArguments(offering type: String) -> [String] {
        switch tools {
        case .wayland: ["--paste-once"] + arguments(offering: type)
        // A TARGETS request, which clients send before they paste, is not counted as one.
        case .x11: arguments(offering: type) + ["-loops", "1"]
        }
    }
}
