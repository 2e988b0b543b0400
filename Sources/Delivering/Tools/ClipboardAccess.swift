/// The whole clipboard through its command-line tools: each type its owner offers read with `wl-paste` or
/// `xclip -out`, and contents put back with `wl-copy` or `xclip -in`, which offer one type each (the text, with the
/// aliases they add to it, or else the first type).
enum ClipboardAccess: Sendable {
    case wayland(wlCopy: HelperProgram, wlPaste: HelperProgram)
    case x11(xclip: HelperProgram)

    /// How long reading the clipboard may take in all: wl-paste answers in about 10 ms, but on KWin 5.27 an empty
    /// clipboard gets no answer at all (wl-paste waited until killed), and every paste would wait for it.
    static let readTime = Duration.seconds(1)

    /// The types the clipboard's owner offers, as it lists them; none where it has no owner or is unreachable.
    func types(environment: [String: String]) async -> [String] {
        let (program, arguments) =
            switch self {
            case .wayland(_, let wlPaste): (wlPaste, ["--list-types"])
            case .x11(let xclip): (xclip, ["-selection", "clipboard", "-out", "-target", "TARGETS"])
            }
        guard let listed = try? await program.run(arguments, input: "", environment: environment, timeLimit: Self.readTime),
            listed.status == 0
        else { return [] }
        return listed.output.split(separator: "\n").map(String.init)
    }

    /// Every type the owner offers, within the caps of `ClipboardContents` and `readTime` in all; empty where there
    /// is no owner.
    func contents(environment: [String: String]) async -> ClipboardContents {
        let deadline = ContinuousClock.now + Self.readTime
        var items: [ClipboardContents.Item] = []
        var total = 0
        for type in await types(environment: environment).filter(ClipboardContents.isContent).prefix(ClipboardContents.mostTypes) {
            let left = deadline - .now
            guard left > .zero else { break }
            let room = min(ClipboardContents.largestItem, ClipboardContents.largestTotal - total)
            guard let bytes = await read(type, environment: environment, timeLimit: left, limit: room + 1), bytes.count <= room
            else { continue }
            items.append(.init(type: type, bytes: bytes))
            total += bytes.count
        }
        return ClipboardContents(items: items)
    }

    /// The clipboard's text (its best text type), or nil where it offers none.
    func text(environment: [String: String]) async -> [UInt8]? {
        let offered = await types(environment: environment)
        guard let type = ClipboardContents.textTypes.first(where: offered.contains) else { return nil }
        return await read(type, environment: environment, timeLimit: Self.readTime, limit: ClipboardContents.largestItem)
    }

    private func read(_ type: String, environment: [String: String], timeLimit: Duration, limit: Int) async -> [UInt8]? {
        let (program, arguments) =
            switch self {
            case .wayland(_, let wlPaste): (wlPaste, ["--no-newline", "--type", type])
            case .x11(let xclip): (xclip, ["-selection", "clipboard", "-out", "-target", type])
            }
        guard
            let read = try? await program.run(
                arguments, input: [], environment: environment, timeLimit: timeLimit, outputLimit: limit),
            read.status == 0
        else { return nil }
        return read.outputBytes
    }

    /// Puts `contents` on the clipboard: the item of `firstToPutBack`; an empty clipboard where it held nothing (on
    /// Wayland: X11 has no way to clear it, and the one-time paste's owner is gone once it served).
    func putBack(_ contents: ClipboardContents, environment: [String: String], timeLimit: Duration) async throws(DeliveryError) {
        let copier = self.copier
        let arguments: [String]
        let bytes: [UInt8]
        if let item = contents.firstToPutBack {
            (arguments, bytes) = (copier.arguments(offering: item.type), item.bytes)
        } else if case .wayland = self {
            (arguments, bytes) = (["--clear"], [])
        } else {
            return
        }
        let ending = try await copier.program.run(arguments, input: bytes, environment: environment, timeLimit: timeLimit)
        guard ending.status == 0 else {
            throw DeliveryError("\(copier.program.name) could not put the clipboard back: \(ending.failure)")
        }
    }

    var copier: ClipboardTarget.Copier {
        switch self {
        case .wayland(let wlCopy, _): .wlCopy(wlCopy)
        case .x11(let xclip): .xclip(xclip)
        }
    }
}
