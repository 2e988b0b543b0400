import DBus
import Notifying
import NotulaContract
import Recording

/// The one check between a sandboxed app and what Notula hears: the live audio and text, transcripts,
/// exports and where dictated text goes. Every gated member is wrapped by `guarding`, so no handler
/// carries a check of its own. A program outside a sandbox passes: the session bus is its already.
struct AccessGate: Sendable {
    let permissions: AppPermissions
    let notifier: Notifier
    let bus: Bus

    /// Returns when `sender` may hear the recordings.
    /// - Throws: `AccessDenied` for a sandboxed app the user denied or has not decided yet; the first
    ///   request of an undecided app asks the user in a notification (one at a time per app).
    func admit(_ sender: String?) async throws(BusError) {
        guard let app = try await sandboxedApp(sender) else { return }
        switch permissions.decision(for: app) {
        case .allowed: return
        case .denied:
            throw BusError(
                .accessDenied, "You denied \(app) access to your recordings. To allow it: notula permissions allow \(app)")
        case nil:
            await notifier.askPermission(for: app)
            throw BusError(
                .accessDenied,
                "\(app) may not hear your recordings until you allow it: answer Notula's notification, or run: notula permissions allow \(app)"
            )
        }
    }

    /// `method`, run only for a caller `admit` lets through; a refused call is answered `AccessDenied` and runs nothing.
    func guarding(_ method: Method) -> Method {
        let bus = self.bus
        return Method(method.name, inputs: method.inputs, outputs: method.outputs, annotations: method.annotations) {
            message throws(BusError) in
            .later { () throws(BusError) in
                try await admit(message.sender)
                return try await bus.awaitReply { () throws(BusError) in try method.handler(message) }
            }
        }
    }

    /// `property`, set only by a caller `admit` lets through; with `reads`, read (`Get`) only by one too, and left
    /// out of `GetAll`; else anyone reads it.
    func guarding(_ property: Property, reads: Bool = false) -> Property {
        guard let setter = property.setter else { return property }
        let bus = self.bus
        let guarded = Property.settable(property.name, property.signature, emitsChanged: property.emitsChanged, getter: property.getter) {
            value, sender throws(BusError) in
            .later { () throws(BusError) in
                try await admit(sender)
                return try await bus.awaitReply { () throws(BusError) in try setter(value, sender) }
            }
        }
        return reads ? guarded.guardingReads { sender throws(BusError) in try await admit(sender) } : guarded
    }

    /// Keeps what the user decided for `app` (nil: forgotten, asked again) and announces `Permissions`.
    func decide(_ app: String, _ decision: AppPermissions.Decision?, how: String) {
        permissions.decide(app, decision)
        notifier.assumeIsolated { $0.withdrawRequest(for: app) }
        Log.info("\(app): \(decision.map { "\($0.rawValue) to hear the recordings" } ?? "asked again at its next request") (\(how))")
        bus.assumeIsolated {
            $0.emitPropertiesChanged(path: NotulaBus.recorderPath, interface: NotulaBus.Recorder.self, names: [.permissions])
        }
    }

    /// `Permissions` and `SetPermission`: the decisions listed, and changed only from outside a sandbox.
    var members: (property: Property, method: Method) {
        let gate = self
        let property = NotulaBus.Recorder.property(.permissions, "a{ss}") {
            .dictionary(
                key: "s", value: "s",
                gate.permissions.all.sorted { $0.key < $1.key }.map {
                    DictionaryEntry(key: .string($0.key), value: .string($0.value.rawValue))
                })
        }
        let method = NotulaBus.Recorder.method(.setPermission, inputs: [Argument("app_id", "s"), Argument("permission", "s")]) {
            message throws(BusError) in
            let (app, spelled): (String, String) = (try message.argument(0), try message.argument(1))
            guard AppPermissions.isAppID(app) else {
                throw BusError.invalidArgs(
                    "An app id is letters, digits, '.', '_' and '-', at most 255: not \(app.prefix(60).debugDescription)")
            }
            let decision: AppPermissions.Decision?
            switch spelled {
            case "ask": decision = nil
            default:
                guard let decided = AppPermissions.Decision(rawValue: spelled) else {
                    throw BusError.invalidArgs("A permission is allowed, denied or ask, not \(spelled.prefix(40).debugDescription)")
                }
                decision = decided
            }
            return .later { () throws(BusError) in
                if let caller = try await gate.sandboxedApp(message.sender) {
                    throw BusError(
                        .accessDenied, "\(caller) runs in a sandbox: only a program outside one may change who hears the recordings")
                }
                await gate.bus.perform { _ in gate.decide(app, decision, how: "SetPermission") }
                return []
            }
        }
        return (property, method)
    }

    /// The app id of `sender` when it runs in a sandbox; nil for a program outside one.
    private func sandboxedApp(_ sender: String?) async throws(BusError) -> String? {
        guard let sender else { throw BusError.invalidArgs("A call without a sender") }
        let caller = try await CallerIdentity.identify(sender, on: bus)
        guard let app = caller.appID else { return nil }
        // An app that cannot be named cannot be asked about or allowed; an id no sandbox gives never reaches
        // settings.json or a notification.
        guard AppPermissions.isAppID(app) else {
            throw BusError(
                .accessDenied,
                "A sandboxed app Notula cannot name (\(caller.program.prefix(60).debugDescription)) may not hear your recordings: it cannot be allowed"
            )
        }
        return app
    }
}

extension Bus {
    /// Runs a call's handler on the bus's executor, where handlers run, and awaits its reply.
    fileprivate func awaitReply(_ handler: @Sendable () throws(BusError) -> MethodReply) async throws(BusError) -> [Value] {
        switch try handler() {
        case .now(let values): return values
        case .later(let work): return try await work()
        case .dictionary: throw BusError.failed("A gated call cannot answer entry by entry")
        }
    }

    fileprivate func perform(_ body: @Sendable (isolated Bus) -> Void) {
        body(self)
    }
}
