import DBus
import Recording
import Synchronization

/// "Toggle recording" and "Hold to talk" as the desktop's own shortcuts, through the XDG GlobalShortcuts portal
/// (KDE Plasma, GNOME 48+, Hyprland): the user assigns their keys in the desktop's settings. Hold to talk starts
/// (or resumes) at the press and sends, with the user's Output, at the release.
///
/// What desktops do differently, all handled here: Plasma 5.27 takes the shortcuts only from `CreateSession`'s
/// options and opens its settings window at `BindShortcuts`, so the bind is asked only for shortcuts the session
/// does not list yet; GNOME 48 binds only for a registered app id and answers 2 even when the bind worked, so
/// the shortcuts it returns are believed, not its code.
public final class GlobalShortcuts: Sendable {
    static let interface: InterfaceName = "org.freedesktop.portal.GlobalShortcuts"
    static let registry: InterfaceName = "org.freedesktop.host.portal.Registry"
    /// The same every run: Plasma names the shortcuts' component after it, and keeps the user's keys for it.
    static let sessionToken = "notula"
    /// The user's answer to the desktop's dialog may take long; past this, the bind is given up until the next start.
    static let dialogPatience: Duration = .seconds(600)

    public enum Shortcut: String, CaseIterable, Sendable {
        case toggle = "toggle-recording"
        case holdToTalk = "hold-to-talk"

        var description: String {
            switch self {
            case .toggle: "Toggle recording"
            case .holdToTalk: "Hold to talk"
            }
        }

        /// A suggestion the desktop may take when the key is free; the user's choice wins.
        var preferredTrigger: String {
            switch self {
            case .toggle: "CTRL+ALT+N"
            case .holdToTalk: "CTRL+ALT+M"
            }
        }
    }

    private let bus: Bus
    private let appID: String
    private let callTimeout: Duration
    private let log: @Sendable (String) -> Void
    private let declined: @Sendable () -> Void
    private let controls: any RecorderControls
    private let state = Mutex(RecordingState.idle)

    /// - Parameters:
    ///   - appID: the name of Notula's `.desktop` file, which GNOME wants registered for the bind.
    ///   - controls: what a press runs.
    ///   - declined: told when the user cancelled the desktop's dialog, so that the next start does not ask again.
    public init(
        bus: Bus, appID: String, controls: any RecorderControls, callTimeout: Duration = .seconds(10),
        log: @escaping @Sendable (String) -> Void, declined: @escaping @Sendable () -> Void
    ) {
        self.bus = bus
        self.controls = controls
        self.appID = appID
        self.callTimeout = callTimeout
        self.log = log
        self.declined = declined
    }

    /// Keeps the recorder's state, which decides what a press does.
    public var reporter: PanelReporter { PanelReporter { [self] snapshot in state.withLock { $0 = snapshot.state } } }

    /// Registers the app id — before any other portal call on the connection, as GNOME requires: call this before
    /// anything else may use the portal — then binds the shortcuts and follows their presses, in a task of their own
    /// for as long as the service runs. Without the portal: one log line.
    public func start() async {
        let registered = await register()
        Task { await bindAndFollow(registered: registered) }
    }

    private func bindAndFollow(registered: Bool) async {
        let requests = PortalRequest(bus: bus, interface: Self.interface, callTimeout: callTimeout)
        guard (try? await DesktopPortal.property("version", of: Self.interface, on: bus, timeout: callTimeout)) != nil else {
            return log("No GlobalShortcuts portal on this desktop: no shortcut is bound (the README gives the compositor's own recipes)")
        }
        let presses: AsyncStream<Message>
        do {
            presses = try await bus.signals(
                matching: MatchRule(sender: DesktopPortal.name, path: DesktopPortal.path, interface: Self.interface, member: "Activated"),
                MatchRule(sender: DesktopPortal.name, path: DesktopPortal.path, interface: Self.interface, member: "Deactivated"))
        } catch {
            return log("Cannot follow the shortcuts: \(error.message)")
        }
        let session: ObjectPath
        do throws(PortalStepFailure) {
            session = try await bind(with: requests, registered: registered)
        } catch {
            return log("The desktop did not bind Notula's shortcuts (\(Self.describe(error)))")
        }
        await follow(presses, of: session, on: bus)
    }

    /// - Returns: true when the registry took the app id: a bind then comes back empty only because the user said no.
    private func register() async -> Bool {
        do {
            _ = try await bus.call(
                portal("Register", on: Self.registry, [.string(appID), [String: Variant]().dbusValue]), timeout: callTimeout)
            return true
        } catch {
            // No portal, or one without the registry (before xdg-desktop-portal 1.19), which knows a host app without it:
            // the bus says so, and there is nothing to tell. The registry's own refusal is worth a line.
            guard !error.name.rawValue.hasPrefix("org.freedesktop.DBus.Error.") else { return false }
            log("The portal did not register Notula's app id \(appID): \(error.message)")
            return false
        }
    }

    /// Creates the session with the shortcuts, and asks to bind those it does not list yet.
    private func bind(with requests: PortalRequest, registered: Bool) async throws(PortalStepFailure) -> ObjectPath {
        let created = try await requests.call(
            "CreateSession", [],
            options: ["session_handle_token": Variant(Self.sessionToken), "shortcuts": Variant(Self.offered)], answerWithin: callTimeout)
        guard let session = DesktopPortal.sessionHandle(in: created) else {
            throw .unreachable(BusError.invalidArgs("CreateSession answered no session_handle"))
        }
        var bound = try await listed(in: session, with: requests)
        if bound.count < Shortcut.allCases.count {
            let (code, results) = try await requests.answer(
                to: "BindShortcuts", [.objectPath(session), Self.offered.dbusValue, .string("")], answerWithin: Self.dialogPatience)
            bound = Self.shortcuts(in: results)
            if bound.isEmpty { bound = try await listed(in: session, with: requests) }
            // The user said no in the desktop's dialog (GNOME 48 answers that with 2 as well, but only a registered app
            // is shown a dialog there): not asked again at every start.
            if bound.isEmpty, code == 1 || (code == 2 && registered) {
                declined()
                throw .refused(1)
            }
        }
        guard !bound.isEmpty else { throw .refused(2) }
        log("Shortcuts bound: " + bound.map { "\($0.id) (\($0.trigger.isEmpty ? "no key yet" : $0.trigger))" }.joined(separator: ", "))
        return session
    }

    private func listed(in session: ObjectPath, with requests: PortalRequest) async throws(PortalStepFailure) -> [(
        id: String, trigger: String
    )] {
        Self.shortcuts(in: try await requests.call("ListShortcuts", [.objectPath(session)], answerWithin: callTimeout))
    }

    /// Each press and release, in order, on the bus's executor, which the recorder shares.
    private func follow(_ presses: AsyncStream<Message>, of session: ObjectPath, on bus: isolated Bus) async {
        for await message in presses {
            guard (try? message.argument(0, as: ObjectPath.self)) == session, let id = try? message.argument(1, as: String.self),
                let shortcut = Shortcut(rawValue: id)
            else { continue }
            guard let action = action(for: shortcut, pressed: message.member == "Activated") else { continue }
            do throws(RecordingError) { try controls.perform(action) } catch {
                log("The \(shortcut.description) shortcut: \(error.message)")
            }
        }
    }

    /// Toggle at the press; hold to talk: start or resume at the press, send at the release.
    private func action(for shortcut: Shortcut, pressed: Bool) -> RecordingAction? {
        let now = state.withLock { $0 }
        switch (shortcut, pressed, now) {
        case (.toggle, true, _): return .toggle
        case (.holdToTalk, true, .idle): return .start
        case (.holdToTalk, true, .paused): return .resume
        case (.holdToTalk, false, .recording), (.holdToTalk, false, .paused): return .process
        default: return nil
        }
    }

    private func portal(_ member: MemberName, on interface: InterfaceName, _ arguments: [Value]) -> MethodCall {
        MethodCall(destination: DesktopPortal.name, path: DesktopPortal.path, interface: interface, member: member, arguments: arguments)
    }

    private static var offered: [DBusStruct<String, [String: Variant]>] {
        Shortcut.allCases.map {
            DBusStruct($0.rawValue, ["description": Variant($0.description), "preferred_trigger": Variant($0.preferredTrigger)])
        }
    }

    /// The ids and key descriptions of the shortcuts a response lists.
    private static func shortcuts(in results: [String: Variant]) -> [(id: String, trigger: String)] {
        guard let listed = try? results["shortcuts"]?.get([DBusStruct<String, [String: Variant]>].self) else { return [] }
        return listed.map { entry in
            let (id, properties) = entry.fields
            return (id, (try? properties["trigger_description"]?.get(String.self)) ?? "")
        }
    }

    private static func describe(_ failure: PortalStepFailure) -> String {
        switch failure {
        case .unreachable(let error): error.message
        case .unanswered: "no answer"
        case .refused(let code):
            code == 1
                ? "the user said no; they are not asked for again: \"globalShortcuts\": true in settings.json asks once more" : "refused"
        }
    }
}
