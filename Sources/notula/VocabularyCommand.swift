import DBus
import NotulaContract

/// `notula vocabulary [add|remove TERM...]`: the user's own words and phrases, which Notula spells as they do.
struct VocabularyCommand {
    let recorder: RecorderClient

    static func isValid(_ operands: [String]) -> Bool {
        operands.isEmpty || (operands.count >= 2 && ["add", "remove"].contains(operands[0]))
    }

    /// The lines to print: the terms, or what the change did to each term named.
    func run(_ operands: [String]) async throws(BusError) -> [String] {
        let terms = try await current()
        guard let change = operands.first else {
            return terms.isEmpty ? ["No vocabulary yet: notula vocabulary add TERM... adds to it"] : terms.map(printable)
        }
        let named = Array(operands.dropFirst())
        let isKept = { (term: String) in terms.contains { $0.lowercased() == term.lowercased() } }
        if change == "add" {
            let added = named.filter { !isKept($0) }
            try await set(terms + added)
            return named.map { "\(printable($0)): \(isKept($0) ? "already in the vocabulary" : "added")" }
        }
        let removed = Set(named.map { $0.lowercased() })
        try await set(terms.filter { !removed.contains($0.lowercased()) })
        return named.map { "\(printable($0)): \(isKept($0) ? "removed" : "not in the vocabulary")" }
    }

    private func current() async throws(BusError) -> [String] {
        let reply = try await recorder.bus.call(property("Get", []))
        return try reply.argument(0, as: Variant.self).get([String].self)
    }

    private func set(_ terms: [String]) async throws(BusError) {
        _ = try await recorder.bus.call(property("Set", [.variant(.array(element: "s", terms.map(Value.string)))]))
    }

    private func property(_ member: MemberName, _ value: [Value]) -> MethodCall {
        MethodCall(
            destination: NotulaBus.name, path: NotulaBus.recorderPath, interface: "org.freedesktop.DBus.Properties", member: member,
            arguments: [.string(NotulaBus.recorderInterface.rawValue), .string(NotulaBus.Recorder.Property.vocabulary.rawValue)] + value)
    }

    /// A term as the terminal shows it: a peer's control characters never reach it.
    private func printable(_ term: String) -> String { TerminalText.safe(term) }
}
