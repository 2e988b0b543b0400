/// The X11 clipboard through `xclip`: each type its owner offers read with `xclip -out`, and taken with `xclip -in`,
/// which offers one type (the text, as UTF8_STRING, or else the first type) and cannot mark an offer sensitive.
public struct ToolClipboard: ClipboardOwner {
    let xclip: HelperProgram
    /// The session's: the display.
    let environment: [String: String]

    public static func xclip(_ xclip: HelperProgram, environment: [String: String]) -> ToolClipboard {
        ToolClipboard(xclip: xclip, environment: environment)
    }

    /// How long listing the types may take: xclip answers in milliseconds; an owner that does not answer would hold
    /// every paste.
    static let listTime = Duration.seconds(1)

    public func types() async -> [String] {
        let (program, arguments) = (xclip, ["-selection", "clipboard", "-out", "-target", "TARGETS"])
        guard let listed = try? await program.run(arguments, input: "", environment: environment, timeLimit: Self.listTime),
            listed.status == 0
        else { return [] }
        return listed.output.split(separator: "\n").map(String.init)
    }

    public func read(_ type: String, limit: Int, timeLimit: Duration) async -> [UInt8]? {
        let (program, arguments) = (xclip, ["-selection", "clipboard", "-out", "-target", type])
        guard
            let read = try? await program.run(
                arguments, input: [], environment: environment, timeLimit: timeLimit, outputLimit: limit + 1),
            read.status == 0, read.outputBytes.count <= limit
        else { return nil }
        return read.outputBytes
    }

    /// Offers one item of `offer`: the text where there is one (every window can paste it), else the first. An empty
    /// offer leaves the clipboard as it is (X11 has no way to clear it, and the one-time paste's owner is gone once
    /// it served). A one-paste offer is a `OnePasteCopy`; the others are served by xclip's child until something else
    /// is copied.
    public func take(_ offer: ClipboardOffer, timeLimit: Duration) async throws(DeliveryError) -> any ClipboardHolding {
        let item = offer.contents.text.map { ClipboardContents.Item(type: ClipboardContents.textTypes[0], bytes: $0) }
            ?? offer.contents.items.first
        if offer.onePaste, let item {
            return try await OnePasteCopy(
                item.bytes, program: xclip, arguments: onePasteArguments(offering: item.type), environment: environment,
                timeLimit: timeLimit)
        }
        guard let item else { return Lasting() }
        let ending = try await xclip.run(arguments(offering: item.type), input: item.bytes, environment: environment, timeLimit: timeLimit)
        guard ending.status == 0 else {
            throw DeliveryError("\(xclip.name) could not put the text on the clipboard: \(ending.failure)")
        }
        return Lasting()
    }

    /// A lasting offer, served by the copier's child: when it serves is not told.
    private struct Lasting: ClipboardHolding {
        func served(within timeLimit: Duration) async -> Bool { false }
    }

    /// The arguments that offer `type`: a text type as UTF8_STRING, which xclip offers by default, or `type` alone.
    private func arguments(offering type: String) -> [String] {
        ["-selection", "clipboard", "-in"] + (ClipboardContents.textTypes.contains(type) ? [] : ["-target", type])
    }

    /// The arguments that serve one paste, then exit. A TARGETS request, which clients send before they paste, is
    /// not counted as one.
    private func onePasteArguments(offering type: String) -> [String] { arguments(offering: type) + ["-loops", "1"] }
}
