/// X11's CLIPBOARD, read and owned by notulad itself: unlike xclip, which offers one type, an offer carries every
/// type of a kept clipboard, and the hint with which clipboard managers (Klipper, and those that follow KDE's
/// convention) leave a one-time paste out of their history. Each reading and each owner has a connection and a
/// thread of its own, so nothing waits on the bus's thread.
public struct X11Clipboard: ClipboardOwner {
    let displayName: String

    /// The clipboard of the session's `DISPLAY`; nil where it has none.
    public init?(environment: [String: String]) {
        guard let display = environment["DISPLAY"], !display.isEmpty else { return nil }
        displayName = display
    }

    /// How long listing the types may take.
    static let listTime = Duration.seconds(1)

    public func types() async -> [String] {
        let deadline = ContinuousClock.now + Self.listTime
        return await onConnection { X11SelectionReader(connection: $0).targets(before: deadline) } ?? []
    }

    public func read(_ type: String, limit: Int, timeLimit: Duration) async -> [UInt8]? {
        let deadline = ContinuousClock.now + timeLimit
        return await onConnection { X11SelectionReader(connection: $0).bytes(of: type, limit: limit, before: deadline) }
    }

    /// Serves `offer` until another program takes the clipboard or, for one paste, until the focused window's program
    /// read one of its contents (at most `onePasteLifetime`). An empty offer leaves the clipboard as it is: X11's is
    /// empty once a one-time paste is over.
    public func take(_ offer: ClipboardOffer, timeLimit: Duration) async throws(DeliveryError) -> any ClipboardHolding {
        let served = SelectionHolding()
        guard !offer.contents.items.isEmpty else {
            served.end()
            return served
        }
        let deadline = ContinuousClock.now + timeLimit
        let taken = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            BlockingThread.start(
                { [displayName] in
                    defer { served.end() }
                    guard let connection = XConnection(displayName) else { return continuation.resume(returning: false) }
                    let owner = X11SelectionOwner(
                        connection: connection, targets: offer.types.compactMap { type in offer.bytes(for: type).map { (connection.atom(type), $0) } },
                        hints: Set(offer.types.filter { !offer.isContent($0) }.map(connection.atom)), onePaste: offer.onePaste)
                    let (taken, time) = owner.take(before: deadline)
                    continuation.resume(returning: taken)
                    if taken { owner.serve(takenAt: time, for: offer.onePaste ? Self.onePasteLifetime : Self.ownerLifetime) }
                },
                otherwise: {
                    served.end()
                    continuation.resume(returning: false)
                })
        }
        guard taken else { throw DeliveryError("Could not take the clipboard of X display \(displayName)") }
        return served
    }

    /// How long a one-time offer waits for its paste: the paste's own wait ends far sooner and puts the user's
    /// clipboard back, which ends it.
    static let onePasteLifetime = Duration.seconds(60)
    /// An owner of the user's clipboard serves it as long as notulad runs.
    private static let ownerLifetime = Duration.seconds(Int64(Int32.max))

    private func onConnection<Result: Sendable>(_ work: @escaping @Sendable (XConnection) -> Result?) async -> Result? {
        await BlockingThread.run(otherwise: nil) { [displayName] in XConnection(displayName).flatMap(work) }
    }
}
