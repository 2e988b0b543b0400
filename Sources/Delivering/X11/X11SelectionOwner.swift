import CX11

/// Serves X11's CLIPBOARD as its owner (ICCCM 2.2–2.7), on the thread that made `connection`: `TARGETS`,
/// `TIMESTAMP` and each offered target, a large one in parts (`INCR`) at the pace the requestor reads them. Ends
/// when another program takes the clipboard, or, for a one-time paste, once one content target was served whole.
struct X11SelectionOwner {
    let connection: XConnection
    /// The offered targets in order, each with its bytes.
    let targets: [(atom: XConnection.Atom, bytes: [UInt8])]
    /// Targets that name no content (the sensitivity hint): asking for one is not a paste.
    let hints: Set<XConnection.Atom>
    let onePaste: Bool

    /// The most incremental transfers at once, and how long one may wait for its requestor: a requestor that stops
    /// reading is dropped, not waited on.
    static let mostTransfers = 8
    static let transferPatience = Duration.seconds(10)

    /// Takes the clipboard; false where the server gives no timestamp or another program keeps it.
    func take(before deadline: ContinuousClock.Instant) -> (taken: Bool, time: Time) {
        let clipboard = connection.atom("CLIPBOARD")
        guard let time = connection.serverTime(before: deadline) else { return (false, 0) }
        connection.setOwner(of: clipboard, to: connection.window, at: time)
        return (connection.owner(of: clipboard) == connection.window, time)
    }

    /// Answers requests until the clipboard is lost, one paste was served (with `onePaste`), or `lifetime` is over.
    func serve(takenAt time: Time, for lifetime: Duration) {
        let clipboard = connection.atom("CLIPBOARD")
        let end = ContinuousClock.now + lifetime
        var state = ServingState()
        while !(onePaste && state.isOver) {
            guard let event = connection.nextEvent(before: state.nextDeadline(before: end)) else {
                state.dropExpired()
                if ContinuousClock.now >= end { break }
                continue
            }
            switch event.type {
            case SelectionClear where event.xselectionclear.selection == clipboard:
                return
            case SelectionRequest:
                answer(event.xselectionrequest, time: time, state: &state)
            case PropertyNotify where event.xproperty.state == PropertyDelete:
                guard let index = state.transfers.firstIndex(where: { $0.waits(for: event.xproperty) }) else { continue }
                if state.transfers[index].sendNext(on: connection) {
                    if state.transfers[index].isContent { state.markServed() }
                    let finished = state.transfers.remove(at: index)
                    if !state.transfers.contains(where: { $0.requestor == finished.requestor }) {
                        connection.watchProperties(of: finished.requestor, false)
                    }
                }
            default: continue
            }
        }
        if connection.owner(of: clipboard) == connection.window { connection.setOwner(of: clipboard, to: 0, at: time) }
    }

    /// How long a clipboard manager that read the content may take to ask for the hint: Klipper asks for the text
    /// first, and would keep it if the hint it asks for next came from the clipboard put back.
    static let managerPatience = Duration.seconds(1)

    private func answer(_ request: XSelectionRequestEvent, time: Time, state: inout ServingState) {
        // ICCCM: an obsolete requestor names no property; the target's name is used for it.
        let property = request.property != 0 ? request.property : request.target
        guard request.selection == connection.atom("CLIPBOARD"), request.owner == connection.window
        else { return connection.notify(request, property: 0) }
        switch request.target {
        case connection.atom("TARGETS"):
            let atoms = [connection.atom("TARGETS"), connection.atom("TIMESTAMP")] + targets.map(\.atom)
            connection.setProperty(property, of: request.requestor, type: atomType, longs: atoms.map { CLong(bitPattern: $0) })
        case connection.atom("TIMESTAMP"):
            connection.setProperty(property, of: request.requestor, type: integerType, longs: [CLong(bitPattern: time)])
        default:
            guard let bytes = targets.first(where: { $0.atom == request.target })?.bytes else {
                return connection.notify(request, property: 0)
            }
            let isHint = hints.contains(request.target)
            let isContent = !isHint && isFromFocusedClient(request)
            if isHint {
                state.managersBetweenReads.remove(request.requestor)
            } else if !isContent, !hints.isEmpty {
                state.managersBetweenReads.insert(request.requestor)
            }
            if bytes.count <= connection.largestPropertyChange {
                connection.setProperty(property, of: request.requestor, type: request.target, bytes: bytes[...])
                if isContent { state.markServed() }
            } else {
                guard state.transfers.count < Self.mostTransfers else { return connection.notify(request, property: 0) }
                connection.watchProperties(of: request.requestor, true)
                connection.setProperty(property, of: request.requestor, type: connection.atom("INCR"), longs: [CLong(bytes.count)])
                state.transfers.append(
                    Transfer(
                        requestor: request.requestor, property: property, type: request.target, bytes: bytes,
                        part: connection.largestPropertyChange, isContent: isContent))
            }
        }
        connection.notify(request, property: property)
    }

    /// Whether `request` comes from the program whose window has the focus, which the paste keystroke reached: a
    /// clipboard manager reading each new clipboard is served too, but that is not the paste. Where no window has
    /// the focus, any request is.
    private func isFromFocusedClient(_ request: XSelectionRequestEvent) -> Bool {
        guard let focused = connection.focusedWindow() else { return true }
        return connection.sameClient(request.requestor, focused)
    }

    /// Xlib's predefined `ATOM` and `INTEGER` (`XA_ATOM`, `XA_INTEGER`: cast macros Swift does not import).
    private let atomType: XConnection.Atom = 4
    private let integerType: XConnection.Atom = 19
}

/// What a serving owner has under way: the transfers, whether the paste was served, and the clipboard managers
/// that read a content and not yet the hint, waited for from the paste on for at most `managerPatience`.
private struct ServingState {
    var transfers: [Transfer] = []
    var managersBetweenReads: Set<XConnection.Window> = []
    private(set) var servedAt: ContinuousClock.Instant?

    mutating func markServed() { servedAt = servedAt ?? .now }

    /// Until when a manager between its reads is waited for; nil where none is.
    var managerPatience: ContinuousClock.Instant? {
        guard let servedAt, !managersBetweenReads.isEmpty else { return nil }
        return servedAt + X11SelectionOwner.managerPatience
    }

    /// The soonest a transfer or the wait for the managers runs out, or `end`.
    func nextDeadline(before end: ContinuousClock.Instant) -> ContinuousClock.Instant {
        ([end] + transfers.map(\.deadline) + [managerPatience].compactMap { $0 }).min()!
    }

    /// Gives up the transfers, and the wait for the managers, whose time ran out.
    mutating func dropExpired() {
        let now = ContinuousClock.now
        transfers.removeAll { $0.deadline <= now }
        if let managerPatience, managerPatience <= now { managersBetweenReads = [] }
    }

    /// The paste was served whole, and no manager is between its reads.
    var isOver: Bool { servedAt != nil && transfers.isEmpty && managersBetweenReads.isEmpty }
}

/// One incremental transfer: a part is written each time the requestor deletes the property it read.
private struct Transfer {
    let requestor: XConnection.Window
    let property: XConnection.Atom
    let type: XConnection.Atom
    let bytes: [UInt8]
    let part: Int
    let isContent: Bool
    var sent = 0
    var deadline = ContinuousClock.now + X11SelectionOwner.transferPatience

    init(requestor: XConnection.Window, property: XConnection.Atom, type: XConnection.Atom, bytes: [UInt8], part: Int, isContent: Bool) {
        (self.requestor, self.property, self.type, self.bytes, self.part, self.isContent) = (requestor, property, type, bytes, part, isContent)
    }

    func waits(for event: XPropertyEvent) -> Bool { event.window == requestor && event.atom == property }

    /// Writes the next part, or the empty one that ends the transfer; true once that was written.
    mutating func sendNext(on connection: XConnection) -> Bool {
        let next = bytes[sent..<min(bytes.count, sent + part)]
        connection.setProperty(property, of: requestor, type: type, bytes: next)
        sent += next.count
        deadline = .now + X11SelectionOwner.transferPatience
        return next.isEmpty
    }
}
