/// The clipboard, read and owned: what its owner offers, read type by type, and taking it with an offer of Notula's.
/// One implementation per way of reaching it (the command-line tools, a protocol client), each bound to one session.
public protocol ClipboardOwner: Sendable {
    /// The types the clipboard's owner offers, as it lists them; none where it has no owner or is unreachable.
    func types() async -> [String]

    /// The bytes the owner gives for `type`; nil where it gives none within `timeLimit`, fails, or gives more than
    /// `limit` bytes (only the first `limit` + 1 need be read to tell).
    func read(_ type: String, limit: Int, timeLimit: Duration) async -> [UInt8]?

    /// Takes the clipboard with `offer` (an empty one leaves the clipboard empty where the way allows); returns once
    /// the clipboard is taken.
    /// - Throws: `DeliveryError` when it cannot be taken within `timeLimit`.
    func take(_ offer: ClipboardOffer, timeLimit: Duration) async throws(DeliveryError) -> any ClipboardHolding
}

/// The clipboard as taken by `ClipboardOwner.take`.
public protocol ClipboardHolding: Sendable {
    /// Whether one paste was served within `timeLimit`: for a one-paste offer, the first time a window asked for one
    /// of its contents (or something else took the clipboard, which ends the offer all the same).
    func served(within timeLimit: Duration) async -> Bool

    /// `served(within:)`, counting only what was asked for from `start` on (the paste keystroke): a clipboard manager
    /// reads each new clipboard at once, before it, and that is no paste. Where the owner cannot tell when (a tool),
    /// as `served(within:)`.
    func served(since start: ContinuousClock.Instant, within timeLimit: Duration) async -> Bool
}

extension ClipboardHolding {
    public func served(since start: ContinuousClock.Instant, within timeLimit: Duration) async -> Bool {
        await served(within: timeLimit)
    }
}

extension ClipboardOwner {
    /// Every type the owner offers, within the caps of `ClipboardContents` and `timeLimit` in all; empty where there
    /// is no owner.
    func contents(timeLimit: Duration) async -> ClipboardContents {
        let deadline = ContinuousClock.now + timeLimit
        var items: [ClipboardContents.Item] = []
        var total = 0
        for type in await types().filter(ClipboardContents.isContent).prefix(ClipboardContents.mostTypes) {
            let left = deadline - .now
            guard left > .zero else { break }
            let room = min(ClipboardContents.largestItem, ClipboardContents.largestTotal - total)
            guard let bytes = await read(type, limit: room, timeLimit: left) else { continue }
            items.append(.init(type: type, bytes: bytes))
            total += bytes.count
        }
        return ClipboardContents(items: items)
    }

    /// The clipboard's text (its best text type), or nil where it offers none.
    func text(timeLimit: Duration) async -> [UInt8]? {
        let offered = await types()
        guard let type = ClipboardContents.textTypes.first(where: offered.contains) else { return nil }
        return await read(type, limit: ClipboardContents.largestItem, timeLimit: timeLimit)
    }
}
