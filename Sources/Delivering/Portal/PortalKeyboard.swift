import DBus
import FoundationEssentials
import Recording

/// Types text into the focused window through the XDG RemoteDesktop portal (GNOME and KDE on Wayland).
///
/// The first delivery opens a remote-desktop session, for which the desktop asks the user once; the session is
/// kept for the next deliveries while it lives, and a new one is opened after the desktop closed it. Where the
/// portal can remember the permission (interface version 2), its `restore_token` is kept in a file of the user's
/// alone, so that a later session starts without asking. Where the portal also offers the session's clipboard
/// (GNOME 48), a text with characters off the keyboard layout, or a long one, is pasted instead: put on the
/// clipboard, one Ctrl+V, and the text that was there put back: whole, and at once, where the Unicode entry is slow
/// and reaches GTK only, and typing takes about 30 ms a character.
public actor PortalKeyboard: TextTarget {
    public nonisolated let method = DeliveryMethod.portal

    private let bus: Bus
    private let restoreTokenFile: String
    private let requests: PortalRequest
    private let consentTimeout: Duration
    private let keyInterval: Duration
    private let modifierPause: Duration
    private let settleAfterStart: Duration
    private let pasteTimeout: Duration
    /// How long a clipboard manager may take to copy a new selection before the paste keystroke goes.
    private let clipboardManagerBound = Duration.milliseconds(100)

    /// The open session, nil before the first delivery and after the desktop closed it.
    private var session: ObjectPath?
    /// The open session's clipboard, where the portal gave it.
    private var clipboard: PortalClipboard?
    /// Forgets `session` when the portal says it closed.
    private var closedWatch: Task<Void, Never>?
    private var isTyping = false
    private var waitingDeliveries: [CheckedContinuation<Void, Never>] = []

    /// - Parameters:
    ///   - bus: the user's session bus, where the portal is.
    ///   - restoreTokenFile: where the portal's `restore_token` is kept (made 0600 in a 0700 folder).
    ///   - callTimeout: the bound of every call to the portal, and of its answer to a request that asks nobody.
    ///   - consentTimeout: how long the user may take to answer the desktop's remote-control dialog.
    ///   - keyInterval: the pause after each key event. GNOME Shell 43 loses keys sent faster than its input method
    ///     takes them: with none, "Hello, wörld" arrived as "llo, öld"; 1 ms lost the Shift of capitals; 3, 5 and
    ///     10 ms arrived whole on an idle 2-core VM. 10 ms leaves room for a busy machine.
    ///   - modifierPause: the pause before and after a press that changes the modifiers or happens under them
    ///     (see `KeyEvent.waitsForInputMethod`): with 10 ms, `"` arrived as `'` on a busy 2-core VM; with 40 ms,
    ///     `d"` as `D"` at a load average of 6 to 10.
    ///   - settleAfterStart: the pause between a new session's start and its first key: without it the Shift of a
    ///     first capital was lost.
    ///   - pasteTimeout: how long the focused window may take to ask for pasted text after the Ctrl+V.
    public init(
        bus: Bus, restoreTokenFile: String, callTimeout: Duration = .seconds(5), consentTimeout: Duration = .seconds(120),
        keyInterval: Duration = .milliseconds(10), modifierPause: Duration = .milliseconds(60),
        settleAfterStart: Duration = .milliseconds(300), pasteTimeout: Duration = .seconds(5)
    ) {
        self.pasteTimeout = pasteTimeout
        self.keyInterval = keyInterval
        self.modifierPause = modifierPause
        self.settleAfterStart = settleAfterStart
        self.bus = bus
        self.restoreTokenFile = restoreTokenFile
        self.requests = PortalRequest(bus: bus, interface: RemoteDesktopPortal.remoteDesktop, callTimeout: callTimeout)
        self.consentTimeout = consentTimeout
    }

    /// The pauses between key events that `session`'s compositor needs: GNOME Shell's (see `init`), or none on KWin,
    /// which hands the keys straight to the window: unpaced, 97 characters of capitals, digits and symbols reached a
    /// Qt entry whole, three times, in 0.27–0.38 s (an input method configured in KWin was not tried).
    public static func keyPauses(for session: DesktopSession) -> (keyInterval: Duration, modifierPause: Duration) {
        session.isDesktop("KDE") ? (.zero, .zero) : (.milliseconds(10), .milliseconds(60))
    }

    /// Whether the session bus has a RemoteDesktop portal that offers a keyboard (owned or activatable). Asking it
    /// may start the portal; it shows no dialog.
    public static func isAvailable(on bus: Bus, timeout: Duration = .seconds(5)) async -> Bool {
        await RemoteDesktopPortal.offersKeyboard(on: bus, timeout: timeout)
    }

    public func deliver(_ text: String) async throws(DeliveryError) {
        let characters = PortalKeystrokes.characters(of: text)
        guard !characters.isEmpty else { return }
        try await typeInSession(characters, describedAs: "characters", orPaste: text)
    }

    /// Whether the portal also shares the session's clipboard (GNOME 48; not xdg-desktop-portal 1.16, GNOME 43's).
    public static func offersClipboard(on bus: Bus, timeout: Duration = .seconds(5)) async -> Bool {
        (try? await DesktopPortal.property("version", of: PortalClipboard.interface, on: bus, timeout: timeout)) != nil
    }

    /// Leaves `text` on the session's clipboard for the user to paste, in the kept session or a new one (which asks
    /// the user, as typing does).
    /// - Throws: where the desktop did not share its clipboard with the session (the user switched it off).
    public func copy(_ text: String) async throws(DeliveryError) {
        await takeTurn()
        defer { endTurn() }
        _ = try await openSession()
        guard let clipboard else {
            throw DeliveryError(
                "The desktop did not share its clipboard with Notula: allow clipboard access when it asks to allow remote "
                    + "interaction, or choose the output type.")
        }
        do throws(BusError) { _ = try await clipboard.offer(text) } catch {
            forgetSession()
            throw DeliveryError("Copying through the desktop portal failed (\(error.message)): try again.")
        }
    }

    /// Presses Ctrl+V in the kept session (opening one, and so asking the user, where there is none): the paste of
    /// a text another program put on the clipboard.
    /// - Returns: when Ctrl went down, after the session's opening and its warm-up: no window pastes before.
    public func pressPaste() async throws(DeliveryError) -> ContinuousClock.Instant {
        try await typeInSession([PortalKeystrokes.paste], describedAs: "keystrokes")
    }

    /// Sends each group of key events in turn, after the warm-up tap, in the kept session or a new one; or pastes
    /// `text`, which they type, where the session has a clipboard and typing it would be slow or lossy.
    /// - Returns: when the first group's first key was sent (or the paste began).
    @discardableResult
    private func typeInSession(_ groups: [[KeyEvent]], describedAs unit: String, orPaste text: String? = nil)
        async throws(DeliveryError) -> ContinuousClock.Instant
    {
        await takeTurn()
        defer { endTurn() }
        let reusing = session != nil
        var session = try await openSession()
        do {
            try await send(PortalKeystrokes.warmUp, in: session)
        } catch {
            forgetSession()
            // A kept session that died unnoticed (the portal restarted): nothing was typed yet, so a new one is safe.
            guard reusing else { throw stopped(after: 0, of: groups.count, unit, error) }
            session = try await openSession()
            do { try await send(PortalKeystrokes.warmUp, in: session) } catch {
                forgetSession()
                throw stopped(after: 0, of: groups.count, unit, error)
            }
        }
        let firstKey = ContinuousClock.now
        if let text, let clipboard, PortalKeystrokes.needsUnicodeEntry(text) || groups.count > DeliveryWays.longestTypedText {
            try await paste(text, through: clipboard, in: session)
            return firstKey
        }
        for (sent, events) in groups.enumerated() {
            guard !Task.isCancelled else { throw stopped(after: sent, of: groups.count, unit, BusError.failed("cancelled")) }
            do { try await send(events, in: session) } catch {
                forgetSession()
                throw stopped(after: sent, of: groups.count, unit, error)
            }
        }
        return firstKey
    }

    private func send(_ events: [KeyEvent], in session: ObjectPath) async throws(BusError) {
        for event in events {
            if event.waitsForInputMethod { try? await Task.sleep(for: modifierPause) }
            _ = try await bus.call(
                MethodCall(
                    destination: RemoteDesktopPortal.name, path: RemoteDesktopPortal.path, interface: RemoteDesktopPortal.remoteDesktop,
                    member: "NotifyKeyboardKeysym",
                    arguments: [
                        .objectPath(session), .dictionary(key: "s", value: "v", []), .int32(event.keysym), .uint32(event.pressed ? 1 : 0),
                    ]),
                timeout: requests.callTimeout)
            try? await Task.sleep(for: event.waitsForInputMethod ? modifierPause : keyInterval)
        }
    }

    /// The text on the session's clipboard, one Ctrl+V, and the text another window had put there put back once
    /// the window took ours (another owner's images or formatting are not: only its text); with no text to put
    /// back, an empty one, so that the dictation does not stay there. Left on the clipboard, for the user to paste,
    /// when the window does not ask for it.
    private func paste(_ text: String, through clipboard: PortalClipboard, in session: ObjectPath) async throws(DeliveryError) {
        let previous = await clipboard.currentText()
        let pasted: AsyncStream<Void>
        do throws(BusError) {
            let copied = try await clipboard.offer(text, sensitive: true)
            // A clipboard manager's copy, which GNOME's makes within milliseconds, must not pass for the window's paste.
            _ = await PortalClipboard.transferred(copied, within: clipboardManagerBound)
            pasted = await clipboard.transfersFromNow()
            try await send(PortalKeystrokes.paste, in: session)
        } catch {
            forgetSession()
            throw DeliveryError("Pasting through the desktop portal failed (\(error.message)): try again.")
        }
        guard await PortalClipboard.transferred(pasted, within: pasteTimeout) else {
            throw DeliveryError(
                "Ctrl+V was pressed with the text on the clipboard, but the focused window did not ask for it: paste it "
                    + "yourself while Notula runs.", leftOnClipboard: true)
        }
        if previous != text { _ = try? await clipboard.offer(previous ?? "") }
    }

    private func stopped(after sent: Int, of count: Int, _ unit: String, _ error: BusError) -> DeliveryError {
        DeliveryError(
            "Typing through the desktop portal stopped after \(sent) of \(count) \(unit) (\(error.message)): "
                + "try again.")
    }

    // MARK: The session

    /// The kept session, or a new one.
    private func openSession() async throws(DeliveryError) -> ObjectPath {
        if let session { return session }
        do {
            return try await startSession()
        } catch {
            throw Self.deliveryError(error, consentTimeout: consentTimeout)
        }
    }

    /// CreateSession, SelectDevices (the keyboard, remembered where the portal can), Start: the desktop asks the user.
    private func startSession() async throws(PortalStepFailure) -> ObjectPath {
        let version: UInt32
        do {
            version = try await DesktopPortal.property(
                "version", of: RemoteDesktopPortal.remoteDesktop, on: bus, timeout: requests.callTimeout)
        } catch {
            throw .unreachable(error)
        }
        let created = try await requests.call(
            "CreateSession", [], options: ["session_handle_token": Variant(PortalRequest.makeToken())], answerWithin: requests.callTimeout)
        guard let handle = DesktopPortal.sessionHandle(in: created) else {
            throw .unreachable(BusError.invalidArgs("CreateSession answered without a session_handle"))
        }
        try await watchClosing(of: handle)
        do throws(PortalStepFailure) {
            var devices: [String: Variant] = ["types": Variant(RemoteDesktopPortal.keyboard)]
            if version >= RemoteDesktopPortal.firstPersistentVersion {
                devices["persist_mode"] = Variant(RemoteDesktopPortal.persistUntilRevoked)
                if let token = readRestoreToken() { devices["restore_token"] = Variant(token) }
            }
            _ = try await requests.call("SelectDevices", [.objectPath(handle)], options: devices, answerWithin: requests.callTimeout)
            let requestedClipboard = await PortalClipboard.request(for: handle, on: bus, callTimeout: requests.callTimeout)
            let started = try await requests.call(
                "Start", [.objectPath(handle), .string("")], answerWithin: consentTimeout)
            guard let granted = try? started["devices"]?.get(UInt32.self), granted & RemoteDesktopPortal.keyboard != 0 else {
                throw .refused(2)
            }
            if let token = try? started["restore_token"]?.get(String.self) { keepRestoreToken(token) }
            if (try? started["clipboard_enabled"]?.get(Bool.self)) == true { clipboard = requestedClipboard }
        } catch {
            forgetSession()
            await requests.close(handle, interface: RemoteDesktopPortal.session)
            throw error
        }
        session = handle
        try? await Task.sleep(for: settleAfterStart)
        return handle
    }

    private func watchClosing(of handle: ObjectPath) async throws(PortalStepFailure) {
        let closings: AsyncStream<Message>
        do {
            closings = try await bus.signals(
                matching: MatchRule(
                    sender: RemoteDesktopPortal.name, path: handle, interface: RemoteDesktopPortal.session, member: "Closed"))
        } catch {
            throw .unreachable(error)
        }
        closedWatch?.cancel()
        closedWatch = Task { [weak self] in
            for await _ in closings {
                await self?.closed(handle)
                return
            }
        }
    }

    private func closed(_ handle: ObjectPath) {
        if session == handle {
            session = nil
            clipboard = nil
        }
    }

    private func forgetSession() {
        session = nil
        clipboard = nil
        closedWatch?.cancel()
        closedWatch = nil
    }

    private static func deliveryError(_ failure: PortalStepFailure, consentTimeout: Duration) -> DeliveryError {
        switch failure {
        case .refused:
            DeliveryError(
                "The desktop's remote-control request was refused or cancelled: allow Notula to control the keyboard "
                    + "(\"Allow remote interaction\", then Share) when the desktop asks, and try again.")
        case .unanswered:
            DeliveryError(
                "Nobody answered the desktop's remote-control request within \(consentTimeout.components.seconds) s: "
                    + "allow it when the desktop asks, and try again.")
        case .unreachable(let error):
            DeliveryError(
                "The desktop portal could not be asked to type (\(error.message)): install xdg-desktop-portal and your "
                    + "desktop's portal (xdg-desktop-portal-gnome or -kde), or choose another typing method.")
        }
    }

    // MARK: The restore token

    private func readRestoreToken() -> String? {
        guard let token = try? String(contentsOfFile: restoreTokenFile, encoding: .utf8), !token.isEmpty else { return nil }
        return token
    }

    /// Kept for the next session; a token that cannot be written only means the user is asked again.
    private func keepRestoreToken(_ token: String) {
        try? PrivateFiles.replace(restoreTokenFile, with: Array(token.utf8))
    }

    // MARK: One delivery at a time

    /// Deliveries wait for each other: their keys would interleave, and two would open two sessions.
    private func takeTurn() async {
        guard isTyping else {
            isTyping = true
            return
        }
        await withCheckedContinuation { waitingDeliveries.append($0) }
    }

    private func endTurn() {
        if waitingDeliveries.isEmpty { isTyping = false } else { waitingDeliveries.removeFirst().resume() }
    }
}
