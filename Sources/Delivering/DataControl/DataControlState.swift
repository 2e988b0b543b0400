import DBus
import Glibc
import Synchronization

/// What the data-control connection knows and holds, touched on its thread only: the seat's device, the offer
/// that is the selection now, and the sources Notula offers. Everything the compositor sends is checked and bounded.
final class DataControlState {
    let display: WaylandCalls.Display
    private var registry: WaylandCalls.Proxy?
    private var manager: WaylandCalls.Proxy?
    private var seat: WaylandCalls.Proxy?
    private var device: WaylandCalls.Proxy?
    /// The types of each offer introduced and not yet let go; the selection is one of them.
    private var offers: [WaylandCalls.Proxy: [String]] = [:]
    private var selection: WaylandCalls.Proxy?
    private var sources: [WaylandCalls.Proxy: HeldSource] = [:]
    /// What each sync callback runs once done (true) or when the connection ended first (false).
    private var syncs: [WaylandCalls.Proxy: (Bool) -> Void] = [:]
    /// Transfers being written, each on a thread of its own for at most `writeTime`, started from the connection's.
    private let writing = WriteCount()
    private(set) var isOver = false

    /// The most types kept of one offer: LibreOffice offers about 20.
    static let mostTypes = 64
    /// The most transfers written at once: a paste asks for one or two.
    static let mostWrites = 16
    /// How long one transfer may take to be read by the window that pastes.
    static let writeTime = Duration.seconds(5)

    private struct HeldSource {
        let offer: ClipboardOffer
        let holding: SelectionHolding
    }

    /// Lists the globals; nil where the registry cannot be had.
    init?(display: WaylandCalls.Display) {
        self.display = display
        guard let registry = WaylandCalls.registry(display) else {
            WaylandCalls.disconnect(display)
            return nil
        }
        self.registry = registry
        WaylandCalls.listen(to: registry, with: registryEvent, context: context)
    }

    private var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Runs `then` once the compositor has sent all it had to before now, with whether the connection still stands.
    func sync(_ then: @escaping (Bool) -> Void) {
        guard let callback = WaylandCalls.sync(display) else { return then(false) }
        syncs[callback] = then
        WaylandCalls.listen(to: callback, with: callbackEvent, context: context)
    }

    /// Whether the compositor offers data control for a seat (known after the first `sync`).
    var hasDevice: Bool { device != nil }

    /// The types the selection offers; none where there is none.
    var selectionTypes: [String] { selection.flatMap { offers[$0] } ?? [] }

    /// A pipe whose read end receives the selection's `type`; nil where it does not offer it.
    func receive(_ type: String) -> FileDescriptor? {
        guard let selection, offers[selection]?.contains(type) == true else { return nil }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        WaylandCalls.receive(selection, type: type, into: ends[1])
        close(ends[1])
        return FileDescriptor(owning: ends[0])
    }

    /// Takes the selection with `offer`, or leaves none where it has no items.
    func take(_ offer: ClipboardOffer) -> SelectionHolding? {
        guard let manager, let device else { return nil }
        let holding = SelectionHolding()
        guard !offer.contents.items.isEmpty else {
            WaylandCalls.select(nil, on: device)
            holding.end()
            return holding
        }
        guard let source = WaylandCalls.source(manager) else { return nil }
        WaylandCalls.listen(to: source, with: sourceEvent, context: context)
        for type in offer.types { WaylandCalls.offer(source, type: type) }
        WaylandCalls.select(source, on: device)
        sources[source] = HeldSource(offer: offer, holding: holding)
        return holding
    }

    /// Lets every object go and disconnects, settling the holdings and the syncs.
    func end() {
        guard !isOver else { return }
        isOver = true
        for (_, then) in syncs { then(false) }
        syncs = [:]
        for (source, held) in sources {
            held.holding.end()
            WaylandCalls.destroySource(source)
        }
        sources = [:]
        for offer in offers.keys { WaylandCalls.destroyOffer(offer) }
        offers = [:]
        if let device { WaylandCalls.destroyDevice(device) }
        for proxy in [seat, registry].compactMap({ $0 }) { WaylandCalls.forget(proxy) }
        WaylandCalls.disconnect(display)
    }

    // MARK: Events

    fileprivate func global(name: UInt32, interface: String) {
        guard let registry else { return }
        if interface == "zwlr_data_control_manager_v1", manager == nil {
            manager = WaylandCalls.bindManager(registry, name: name)
        } else if interface == "wl_seat", seat == nil {
            seat = WaylandCalls.bindSeat(registry, name: name)
        }
        if device == nil, let manager, let seat, let device = WaylandCalls.device(manager, seat: seat) {
            self.device = device
            WaylandCalls.listen(to: device, with: deviceEvent, context: context)
        }
    }

    fileprivate func callbackDone(_ callback: WaylandCalls.Proxy) {
        WaylandCalls.forget(callback)
        syncs.removeValue(forKey: callback)?(true)
    }

    fileprivate func introduced(_ offer: WaylandCalls.Proxy) {
        offers[offer] = []
        WaylandCalls.listen(to: offer, with: offerEvent, context: context)
    }

    fileprivate func offered(_ type: String, by offer: WaylandCalls.Proxy) {
        guard var types = offers[offer], types.count < Self.mostTypes, ClipboardContents.isContent(type) || type == ClipboardOffer.sensitiveHint.type
        else { return }
        types.append(type)
        offers[offer] = types
    }

    fileprivate func selected(_ offer: WaylandCalls.Proxy?) {
        if let selection, selection != offer {
            WaylandCalls.destroyOffer(selection)
            offers[selection] = nil
        }
        selection = offer.flatMap { offers[$0] != nil ? $0 : nil }
    }

    fileprivate func deviceFinished() {
        if let device { WaylandCalls.destroyDevice(device) }
        device = nil
    }

    /// A window asks for `type`: written from memory on a thread of its own, bounded in time. Asking for content (not
    /// the hint) is noted as a paste once written; a one-paste offer is then replaced by the clipboard put back, and
    /// is served to whoever asks until then (a clipboard manager reads it at once, before the keystroke).
    fileprivate func send(_ source: WaylandCalls.Proxy, type: String, into descriptor: Int32) {
        let file = FileDescriptor(owning: descriptor)
        guard let held = sources[source], let bytes = held.offer.bytes(for: type), writing.start(under: Self.mostWrites) else { return }
        _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
        let (writing, time, asked) = (self.writing, Self.writeTime, ContinuousClock.now)
        let paste = held.offer.isContent(type) ? held.holding : nil
        SelectionPipe.startWriting(bytes, to: file, within: time) { _ in
            writing.end()
            // Told once written: a window (foot, wl-paste) gives up a paste whose selection changes while it asks.
            paste?.asked(at: asked)
        }
    }

    /// Something else took the selection: the source is let go.
    fileprivate func cancelled(_ source: WaylandCalls.Proxy) {
        guard let held = sources.removeValue(forKey: source) else { return }
        held.holding.end()
        WaylandCalls.destroySource(source)
    }

    fileprivate static func of(_ proxy: UnsafeMutableRawPointer?) -> DataControlState? {
        guard let proxy, let context = WaylandCalls.context(of: OpaquePointer(proxy)) else { return nil }
        return Unmanaged<DataControlState>.fromOpaque(context).takeUnretainedValue()
    }
}

@available(*, unavailable) extension DataControlState: Sendable {}

/// How many transfers are being written.
private final class WriteCount: Sendable {
    private let count = Atomic<Int>(0)

    /// Counts one more, unless `most` are being written.
    func start(under most: Int) -> Bool {
        guard count.add(1, ordering: .relaxed).newValue <= most else {
            count.subtract(1, ordering: .relaxed)
            return false
        }
        return true
    }

    func end() { count.subtract(1, ordering: .relaxed) }
}

// The dispatchers libwayland calls with each event, on the connection's thread.

private let registryEvent: WaylandCalls.Dispatcher = { _, proxy, event, _, arguments in
    guard let state = DataControlState.of(proxy), let arguments, event == 0,
        let interface = WaylandCalls.string(arguments, 1)
    else { return 0 }
    state.global(name: WaylandCalls.number(arguments, 0), interface: interface)
    return 0
}

private let callbackEvent: WaylandCalls.Dispatcher = { _, proxy, _, _, _ in
    if let state = DataControlState.of(proxy), let proxy { state.callbackDone(OpaquePointer(proxy)) }
    return 0
}

private let deviceEvent: WaylandCalls.Dispatcher = { _, proxy, event, _, arguments in
    guard let state = DataControlState.of(proxy), let arguments else { return 0 }
    switch event {
    case WaylandCalls.deviceDataOffer: WaylandCalls.object(arguments, 0).map(state.introduced)
    case WaylandCalls.deviceSelection: state.selected(WaylandCalls.object(arguments, 0))
    case WaylandCalls.deviceFinished: state.deviceFinished()
    default: break
    }
    return 0
}

private let offerEvent: WaylandCalls.Dispatcher = { _, proxy, event, _, arguments in
    guard let state = DataControlState.of(proxy), let proxy, let arguments, event == WaylandCalls.offerOffer,
        let type = WaylandCalls.string(arguments, 0)
    else { return 0 }
    state.offered(type, by: OpaquePointer(proxy))
    return 0
}

private let sourceEvent: WaylandCalls.Dispatcher = { _, proxy, event, _, arguments in
    guard let state = DataControlState.of(proxy), let proxy else { return 0 }
    let source = OpaquePointer(proxy)
    switch event {
    case WaylandCalls.sourceSend:
        guard let arguments else { return 0 }
        let descriptor = WaylandCalls.descriptor(arguments, 1)
        guard let type = WaylandCalls.string(arguments, 0) else {
            close(descriptor)
            return 0
        }
        state.send(source, type: type, into: descriptor)
    case WaylandCalls.sourceCancelled: state.cancelled(source)
    default: break
    }
    return 0
}
