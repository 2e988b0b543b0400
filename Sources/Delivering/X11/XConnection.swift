import CX11
import Glibc

/// One connection to an X display, used by one thread only: every Xlib call of Notula goes through here.
/// A window of its own (1×1, never mapped) receives the selection's replies and property changes.
final class XConnection {
    typealias Window = CX11.Window
    typealias Atom = CX11.Atom

    private let display: OpaquePointer
    let window: Window
    private var atoms: [String: Atom] = [:]

    /// Opens `displayName` (`DISPLAY`); nil where the display cannot be reached.
    init?(_ displayName: String) {
        Self.setUpOnce
        guard let display = XOpenDisplay(displayName) else { return nil }
        self.display = display
        window = XCreateSimpleWindow(display, XDefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0)
        XSelectInput(display, window, Self.propertyChangeMask)
        // Past the handlers, a lost connection would end notulad: the waits see its end instead.
        XSetIOErrorExitHandler(display, { _, _ in }, nil)
    }

    deinit {
        XDestroyWindow(display, window)
        XCloseDisplay(display)
    }

    /// Xlib's defaults end the process: on any protocol error (a requestor's window gone before the reply reached
    /// it) and on a lost connection. Errors are left to the call that waits for a reply, by its deadline.
    private static let setUpOnce: Void = {
        XInitThreads()
        XSetErrorHandler { _, _ in 0 }
        XSetIOErrorHandler { _ in 0 }
    }()

    static let propertyChangeMask = Int(PropertyChangeMask)
    static let noEventMask = Int(NoEventMask)

    func atom(_ name: String) -> Atom {
        if let atom = atoms[name] { return atom }
        let atom = XInternAtom(display, name, 0)
        atoms[name] = atom
        return atom
    }

    /// The name of `atom`, which a peer chose: nil for one the server does not know.
    func name(of atom: Atom) -> String? {
        guard atom != 0, let name = XGetAtomName(display, atom) else { return nil }
        defer { XFree(name) }
        return String(cString: name)
    }

    /// The next event, read before `deadline`; nil once it has passed.
    func nextEvent(before deadline: ContinuousClock.Instant) -> XEvent? {
        let descriptor = XConnectionNumber(display)
        while true {
            if XPending(display) > 0 {
                var event = XEvent()
                XNextEvent(display, &event)
                return event
            }
            let milliseconds = (deadline - .now) / .milliseconds(1)
            guard milliseconds > 0 else { return nil }
            var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, Int32(min(milliseconds.rounded(.up), 1000)))
            if polled == -1 && errno != EINTR { return nil }
            if ready.revents & Int16(POLLERR | POLLHUP) != 0 { return nil }
        }
    }

    /// A server timestamp: the time of an empty append to a property of the own window (ICCCM: the owner of a
    /// selection names the time it took it, never `CurrentTime`).
    func serverTime(before deadline: ContinuousClock.Instant) -> Time? {
        let marker = atom("NOTULA_TIMESTAMP")
        XChangeProperty(display, window, marker, XA_STRING_ATOM, 8, PropModeAppend, nil, 0)
        while let event = nextEvent(before: deadline) {
            if event.type == PropertyNotify, event.xproperty.window == window, event.xproperty.atom == marker {
                return event.xproperty.time
            }
        }
        return nil
    }

    // MARK: Selections

    func setOwner(of selection: Atom, to owner: Window, at time: Time) {
        XSetSelectionOwner(display, selection, owner, time)
        XFlush(display)
    }

    func owner(of selection: Atom) -> Window { XGetSelectionOwner(display, selection) }

    /// The window with the keyboard focus; nil for none or the pointer's root.
    func focusedWindow() -> Window? {
        var focus: Window = 0
        var revert: Int32 = 0
        XGetInputFocus(display, &focus, &revert)
        return focus > 1 ? focus : nil
    }

    /// Whether `window` and `other` belong to one client: the bits of an ID past the server's resource mask name
    /// its client.
    func sameClient(_ window: Window, _ other: Window) -> Bool {
        let clientBits = ~CX11_resourceMask(display)
        return window & clientBits == other & clientBits
    }

    func convert(_ selection: Atom, to target: Atom, into property: Atom) {
        XConvertSelection(display, selection, target, property, window, Time(CurrentTime))
        XFlush(display)
    }

    /// Tells `request`'s requestor that its conversion is in `property` (None: refused).
    func notify(_ request: XSelectionRequestEvent, property: Atom) {
        var event = XEvent()
        event.xselection.type = SelectionNotify
        event.xselection.display = request.display
        event.xselection.requestor = request.requestor
        event.xselection.selection = request.selection
        event.xselection.target = request.target
        event.xselection.property = property
        event.xselection.time = request.time
        XSendEvent(display, request.requestor, 0, 0, &event)
        XFlush(display)
    }

    /// Whether `other` tells this connection when its properties change (the incremental transfer's pace).
    func watchProperties(of other: Window, _ watched: Bool) {
        XSelectInput(display, other, watched ? Self.propertyChangeMask : Self.noEventMask)
    }

    // MARK: Properties

    /// A property read: its type, format (8, 16, 32) and bytes; format-32 items are C `long`s, as Xlib gives them.
    struct PropertyValue {
        let type: Atom
        let format: Int32
        let bytes: [UInt8]
    }

    /// `property` of the own window, deleted once read; nil where it is missing or holds more than `limit` bytes
    /// as the server counts them (4 a format-32 item).
    func takeProperty(_ property: Atom, limit: Int) -> PropertyValue? {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var left: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        defer { XDeleteProperty(display, window, property) }
        // Lengths are in 32-bit units; one more than the limit tells a larger value.
        guard XGetWindowProperty(display, window, property, 0, limit / 4 + 1, 0, 0, &type, &format, &count, &left, &data) == Success
        else { return nil }
        defer { if let data { XFree(data) } }
        guard type != 0, left == 0, [8, 16, 32].contains(format), Int(count) <= limit / (Int(format) / 8) else { return nil }
        // Xlib hands format-32 items over as C `long`s.
        let size = Int(count) * (format == 32 ? MemoryLayout<CLong>.size : Int(format) / 8)
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
        return PropertyValue(type: type, format: format, bytes: bytes)
    }

    /// Replaces `property` of `owner` with `bytes` as format-8 items of `type`.
    func setProperty(_ property: Atom, of owner: Window, type: Atom, bytes: ArraySlice<UInt8>) {
        bytes.withUnsafeBufferPointer {
            _ = XChangeProperty(display, owner, property, type, 8, PropModeReplace, $0.baseAddress, Int32(clamping: $0.count))
        }
        XFlush(display)
    }

    /// Replaces `property` of `owner` with `values` as format-32 items (atoms, a time, a size).
    func setProperty(_ property: Atom, of owner: Window, type: Atom, longs values: [CLong]) {
        values.withUnsafeBytes {
            _ = XChangeProperty(
                display, owner, property, type, 32, PropModeReplace, $0.baseAddress?.assumingMemoryBound(to: UInt8.self),
                Int32(clamping: values.count))
        }
        XFlush(display)
    }

    /// The most bytes one property change carries: what the server takes, less room for the request's header, and
    /// at most 1 MiB, past which a value goes in parts as most owners send it (GTK's parts are smaller still).
    var largestPropertyChange: Int {
        let units = XExtendedMaxRequestSize(display) > 0 ? XExtendedMaxRequestSize(display) : XMaxRequestSize(display)
        return min(1 << 20, max(4096, units * 4 - 1024))
    }
}

/// Xlib's predefined atom for `STRING` (`XA_STRING`, a cast macro Swift does not import).
private let XA_STRING_ATOM: XConnection.Atom = 31
