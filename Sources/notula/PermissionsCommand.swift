import DBus
import NotulaContract

/// `notula permissions [allow|deny|revoke APP]`: which sandboxed apps may hear the recordings.
struct PermissionsCommand {
    /// The words after `permissions` and what `SetPermission` is sent for each.
    static let changes = ["allow": "allowed", "deny": "denied", "revoke": "ask"]

    let recorder: RecorderClient

    static func isValid(_ operands: [String]) -> Bool {
        operands.isEmpty || (operands.count == 2 && changes[operands[0]] != nil)
    }

    /// The lines to print: the decisions, or what the change made of `APP`.
    func run(_ operands: [String]) async throws(BusError) -> [String] {
        guard let change = operands.first.flatMap({ Self.changes[$0] }) else { return try await list() }
        let app = operands[1]
        _ = try await recorder.call(.setPermission, [.string(app), .string(change)])
        return [change == "ask" ? "\(app): asked again at its next request" : "\(app): \(change)"]
    }

    /// "APP  allowed" a line, sorted, the ids aligned; a line saying so when none was decided.
    private func list() async throws(BusError) -> [String] {
        let reply = try await recorder.bus.call(
            MethodCall(
                destination: NotulaBus.name, path: NotulaBus.recorderPath, interface: "org.freedesktop.DBus.Properties",
                member: "Get",
                arguments: [.string(NotulaBus.recorderInterface.rawValue), .string(NotulaBus.Recorder.Property.permissions.rawValue)]))
        // Printed from a peer: only what an app id may hold, so that no control character reaches the terminal.
        let decisions = try reply.argument(0, as: Variant.self).get([String: String].self)
            .map { (printable($0.key), printable($0.value)) }.sorted { $0.0 < $1.0 }
        guard !decisions.isEmpty else { return ["No sandboxed app allowed or denied yet: each is asked at its first request"] }
        let width = decisions.map(\.0.count).max() ?? 0
        return decisions.map { app, decision in app + String(repeating: " ", count: width - app.count + 2) + decision }
    }

    private func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .control }.prefix(255)))
    }
}
