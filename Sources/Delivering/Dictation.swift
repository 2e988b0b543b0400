/// Puts memos' texts where the user types, one after the other in the order they were processed, so that
/// consecutive dictations arrive in the order spoken.
///
/// The session is read at each delivery (notulad often starts before the graphical session exports its
/// display); the ways to reach it are found again only when it changes, so that a portal session is kept.
public actor Dictation {
    public typealias SessionReader = @Sendable () async -> DesktopSession
    public typealias WaysFinder = @Sendable (DesktopSession) async -> DeliveryWays

    private let readSession: SessionReader
    private let findWays: WaysFinder
    private var known: (session: DesktopSession, ways: DeliveryWays)?
    private var last: Task<Void, Never>?

    public init(readSession: @escaping SessionReader, findWays: @escaping WaysFinder) {
        self.readSession = readSession
        self.findWays = findWays
    }

    /// How a text arrived.
    public struct Delivery: Sendable, Equatable {
        public let method: DeliveryMethod
        /// How its spoken line breaks were typed (`.kept` on the clipboard, where they run nothing).
        public let newLines: NewLines

        public init(method: DeliveryMethod, newLines: NewLines) {
            self.method = method
            self.newLines = newLines
        }
    }

    /// Delivers `text` to `output` after the deliveries asked for before.
    /// - Returns: How it arrived; nil for `.memo` or an empty text, which go nowhere.
    /// - Throws: Why it could not arrive; the message also says whether the text is on the clipboard instead.
    public func deliver(_ text: String, to output: TextOutput, typing: TypingChoice) async throws(DeliveryError) -> Delivery? {
        guard output != .memo, !text.isEmpty else { return nil }
        let previous = last
        let delivery = Task { () async -> Result<Delivery, DeliveryError> in
            await previous?.value
            return await self.deliverNow(text, to: output, typing: typing)
        }
        last = Task { _ = await delivery.value }
        return try await delivery.value.get()
    }

    /// Runs `work` before the deliveries asked for from now on (at start: the clipboard a killed notulad left is put
    /// back before anything is pasted).
    public func first(_ work: @escaping @Sendable () async -> Void) {
        let previous = last
        last = Task {
            await previous?.value
            await work()
        }
    }

    private func deliverNow(_ text: String, to output: TextOutput, typing: TypingChoice) async -> Result<Delivery, DeliveryError> {
        let (session, ways) = await currentWays()
        do throws(DeliveryError) {
            switch output {
            case .memo: preconditionFailure("nothing to deliver for .memo")
            case .clipboard:
                let clipboard = try ways.clipboard.get()
                try await clipboard.deliver(NewLines.asLineBreaks(text))
                return .success(Delivery(method: clipboard.method, newLines: .kept))
            case .type:
                let (typed, newLines) = await NewLines.typed(text, focus: ways.focus)
                var tried: DeliveryMethod?
                do throws(DeliveryError) {
                    let typist = try ways.typist(typing, in: session, for: typed)
                    tried = typist.method
                    try await typist.deliver(typed)
                    return .success(Delivery(method: typist.method, newLines: newLines))
                } catch {
                    // A way that refused (say, more characters outside the layout than spare keys): pasting needs no layout.
                    if typing == .automatic, tried != .paste, let paste = ways.pasteInstead(in: session),
                        (try? await paste.deliver(typed)) != nil
                    {
                        return .success(Delivery(method: paste.method, newLines: newLines))
                    }
                    return .failure(await Self.leaveOnClipboard(text, ways: ways, after: error))
                }
            }
        } catch {
            return .failure(error)
        }
    }

    /// Typing failed: the text goes to the clipboard where it can, and the error says which.
    private static func leaveOnClipboard(_ text: String, ways: DeliveryWays, after failure: DeliveryError) async -> DeliveryError {
        guard !failure.leftOnClipboard else { return failure }
        do throws(DeliveryError) {
            try await ways.clipboard.get().deliver(NewLines.asLineBreaks(text))
            return DeliveryError(failure.message + " The text is on the clipboard: paste it with Ctrl+V.")
        } catch {
            return DeliveryError(
                failure.message + " It could not be put on the clipboard either: \(error.message) The text is in the memo.")
        }
    }

    private func currentWays() async -> (DesktopSession, DeliveryWays) {
        let session = await readSession()
        if let known, known.session == session { return (session, known.ways) }
        let ways = await findWays(session)
        known = (session, ways)
        return (session, ways)
    }
}
