import DBus

/// The clipboard of a RemoteDesktop session, through the XDG Clipboard portal (GNOME 48; xdg-desktop-portal 1.16,
/// GNOME 43's, has none): text notulad puts on it is served to whichever window asks, for as long as the session
/// owns the selection, and the text another window put there can be read, to be put back.
actor PortalClipboard {
    static let interface: InterfaceName = "org.freedesktop.portal.Clipboard"
    /// What the text is offered as; GTK asks for the first, older toolkits for the second.
    static let mimeTypes = ["text/plain;charset=utf-8", "text/plain"]
    /// Offered beside the text of a one-time paste, with the content `secret`: KDE's Klipper, and the clipboard
    /// managers that follow it, keep no copy of an offer that has it (as `wl-copy --sensitive` offers it).
    static let passwordManagerHint = "x-kde-passwordManagerHint"
    /// The most of another owner's text read to be put back: a larger one is left alone.
    static let largestKeptText = 1 << 20

    /// Who holds the selection, as the portal last said (mutter says it for the current owner when the clipboard
    /// is enabled, at Start, and at every change).
    private struct Owner {
        let isThisSession: Bool
        let mimeTypes: [String]
    }

    private let bus: Bus
    private let session: ObjectPath
    private let callTimeout: Duration
    /// What the session offers now, served at every transfer; nil before the first offer.
    private var offered: [UInt8]?
    /// nil while the portal has named no owner: there may be none.
    private var owner: Owner?
    /// Told of each transfer served since `transfersFromNow()`.
    private var served: AsyncStream<Void>.Continuation?
    /// Set from `SetSelection` until the portal says the selection is the session's: the transfers asked in between
    /// were of the selection before, which mutter cancels, so they are not answered (a `SelectionWrite` for one
    /// fails, and a failing one is where xdg-desktop-portal 1.20 was seen to crash).
    private var ownership: AsyncStream<Void>.Continuation?
    /// Whether a transfer is being answered: `SetSelection` waits for its end, as it would cancel it.
    private var isServing = false
    private var servingEnded: [CheckedContinuation<Void, Never>] = []
    private var listening: Task<Void, Never>?
    /// Told when the portal names an owner, while `currentText()` waits for one.
    private var ownerNamed: AsyncStream<Void>.Continuation?

    /// Asks for the clipboard with the session's devices, before `Start` (the user's dialog then offers it too), and
    /// listens to what the portal says of it from then on.
    /// - Returns: nil where the portal has no Clipboard interface or refuses; the clipboard is the session's only
    ///   once `Start` says `clipboard_enabled`.
    static func request(for session: ObjectPath, on bus: Bus, callTimeout: Duration) async -> PortalClipboard? {
        do {
            let clipboard = try await PortalClipboard(of: session, on: bus, callTimeout: callTimeout)
            _ = try await clipboard.call("RequestClipboard", [.dictionary(key: "s", value: "v", [])])
            return clipboard
        } catch {
            return nil
        }
    }

    private init(of session: ObjectPath, on bus: Bus, callTimeout: Duration) async throws(BusError) {
        self.bus = bus
        self.session = session
        self.callTimeout = callTimeout
        let signals = try await bus.signals(
            matching: MatchRule(sender: RemoteDesktopPortal.name, path: RemoteDesktopPortal.path, interface: Self.interface))
        listening = Task { [weak self] in
            for await signal in signals {
                guard let self else { return }
                await self.handle(signal)
            }
        }
    }

    deinit { listening?.cancel() }

    /// The text on the clipboard now, or nil when there is none (no owner, no text among its types, more than
    /// `largestKeptText`, or not handed over within a second).
    func currentText() async -> String? {
        await waitForOwner(within: Self.ownerAnnouncementTime)
        // With no owner, SelectionRead fails, and xdg-desktop-portal-gnome 48 crashes on that failure: ask only an
        // owner the portal named. This session's own selection cannot be read: it is the text offered.
        guard let owner else { return nil }
        if owner.isThisSession { return offered.map { String(decoding: $0, as: UTF8.self) } }
        guard let mimeType = Self.mimeTypes.first(where: owner.mimeTypes.contains),
            let pipe = try? await call("SelectionRead", [.string(mimeType)]).argument(0, as: FileDescriptor.self),
            let bytes = await SelectionPipe.read(pipe, limit: Self.largestKeptText, within: .seconds(1))
        else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Makes `text` the clipboard's content; `sensitive`, with the password manager's hint beside it.
    /// - Returns: `transfersFromNow()`, from before the selection changed: the first is a clipboard manager's copy,
    ///   where the desktop has one (GNOME's reads every new selection at once).
    func offer(_ text: String, sensitive: Bool = false) async throws(BusError) -> AsyncStream<Void> {
        while isServing { await withCheckedContinuation { servingEnded.append($0) } }
        offered = Array(text.utf8)
        let mimeTypes = Self.mimeTypes + (sensitive ? [Self.passwordManagerHint] : [])
        let transfers = transfersFromNow()
        let (owned, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        ownership = continuation
        defer { ownership = nil }
        _ = try await call("SetSelection", [["mime_types": Variant(mimeTypes)].dbusValue])
        // The portal answers before mutter has set it: the selection is the session's once the portal says so (or,
        // from a portal that never says, after a while).
        _ = await Self.transferred(owned, within: .milliseconds(500))
        owner = Owner(isThisSession: true, mimeTypes: mimeTypes)
        return transfers
    }

    /// A stream told of each transfer served from now on (the last stream ends).
    func transfersFromNow() -> AsyncStream<Void> {
        served?.finish()
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        served = continuation
        return stream
    }

    /// How long a new session waits for the portal to name the clipboard's owner. mutter names it when the clipboard
    /// is enabled, but that signal and Start's answer travel apart: a session started at once, from a restore token,
    /// read the clipboard before the name arrived and did not put the user's text back. With no owner, nothing comes.
    static let ownerAnnouncementTime = Duration.milliseconds(300)

    /// Returns once the portal has named an owner, or after `bound`.
    private func waitForOwner(within bound: Duration) async {
        guard owner == nil else { return }
        let (named, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        ownerNamed = continuation
        defer { ownerNamed = nil }
        _ = await Self.transferred(named, within: bound)
    }

    /// Whether `transfers` (or any such stream) tells of one within `bound`.
    static func transferred(_ transfers: AsyncStream<Void>, within bound: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in transfers { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: bound)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    private func handle(_ signal: Message) async {
        guard (try? signal.argument(0, as: ObjectPath.self)) == session else { return }
        switch signal.member {
        case "SelectionTransfer":
            guard ownership == nil else { return }
            await serve(signal)
        case "SelectionOwnerChanged":
            let options = (try? signal.argument(1, as: [String: Variant].self)) ?? [:]
            let isThisSession = (try? options["session_is_owner"]?.get(Bool.self)) ?? false
            owner = Owner(isThisSession: isThisSession, mimeTypes: options["mime_types"].map(Self.strings) ?? [])
            ownerNamed?.yield()
            if isThisSession { ownership?.yield() }
        default: return
        }
    }

    /// Answers `SelectionTransfer(o session, s mime_type, u serial)`: the text written into the pipe of
    /// `SelectionWrite`, then `SelectionWriteDone` saying whether all of it went.
    private func serve(_ transfer: Message) async {
        guard let serial = try? transfer.argument(2, as: UInt32.self) else { return }
        isServing = true
        defer {
            isServing = false
            for waiting in servingEnded { waiting.resume() }
            servingEnded = []
        }
        let hint = (try? transfer.argument(1, as: String.self)) == Self.passwordManagerHint
        let done = await write(serial, hint ? Array("secret".utf8) : offered)
        _ = try? await call("SelectionWriteDone", [.uint32(serial), .boolean(done)])
        // A manager asking whether the offer is secret has not pasted it.
        if done && !hint { served?.yield() }
    }

    /// Writes `bytes` into the transfer's pipe; the pipe is closed on return, which the reader sees as its end.
    private func write(_ serial: UInt32, _ bytes: [UInt8]?) async -> Bool {
        guard let bytes, let pipe = try? await call("SelectionWrite", [.uint32(serial)]).argument(0, as: FileDescriptor.self)
        else { return false }
        return await SelectionPipe.write(bytes, to: pipe, within: .seconds(5))
    }

    /// `mime_types` as the specification has it (`as`), or as xdg-desktop-portal 1.20 sends it, in a tuple (`(as)`).
    private static func strings(_ variant: Variant) -> [String] {
        if let strings = try? variant.get([String].self) { return strings }
        guard case .structure(let fields) = variant.value, let first = fields.first, let strings = try? [String](dbusValue: first)
        else { return [] }
        return strings
    }

    private func call(_ member: MemberName, _ arguments: [Value]) async throws(BusError) -> Message {
        try await bus.call(
            MethodCall(
                destination: RemoteDesktopPortal.name, path: RemoteDesktopPortal.path, interface: Self.interface, member: member,
                arguments: [.objectPath(session)] + arguments),
            timeout: callTimeout)
    }
}
