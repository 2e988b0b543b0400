import DBus
import Dispatch
import NotulaContract

#if canImport(Glibc)
    import Glibc
#endif

/// The Models object and the recorder's Locale, as the command line sees them.
struct ModelsClient {
    private typealias Models = NotulaBus.Models
    private static let properties: InterfaceName = "org.freedesktop.DBus.Properties"

    let bus: Bus

    /// The recorder's Locale.
    func locale() async throws(BusError) -> String {
        let reply = try await call(
            NotulaBus.recorderPath, Self.properties, "Get",
            [.string(NotulaBus.recorderInterface.rawValue), .string(NotulaBus.Recorder.Property.locale.rawValue)])
        return try reply.argument(0, as: Variant.self).get(String.self)
    }

    /// Sets the recorder's Locale; the service installs its model when missing.
    /// - Returns: What a person is told: the locale, and whether its model is downloading.
    func setLocale(_ tag: String) async throws(BusError) -> String {
        try await call(
            NotulaBus.recorderPath, Self.properties, "Set",
            [
                .string(NotulaBus.recorderInterface.rawValue), .string(NotulaBus.Recorder.Property.locale.rawValue),
                .variant(.string(tag)),
            ])
        let locale = try await locale()
        let downloading = try await property(.downloadingLocale, as: String.self)
        guard downloading == locale else { return locale }
        return "\(locale) (its model is downloading: `notula models install \(locale)` shows the progress)"
    }

    /// `ko-KR installed`, `en-US available`, `nl-NL downloading 42%`: a line per supported locale.
    func list() async throws(BusError) -> [String] {
        let supported = try await property(.supportedLocales, as: [String].self)
        let installed = Set(try await property(.installedLocales, as: [String].self))
        let downloading = try await property(.downloadingLocale, as: String.self)
        let progress = try await property(.downloadProgress, as: Double.self)
        return supported.map { locale in
            if installed.contains(locale) { return "\(locale) installed" }
            if locale == downloading { return "\(locale) downloading \(Int(progress * 100))%" }
            return "\(locale) available"
        }
    }

    /// Installs the model of `tag`, showing the download's progress on `progressBar`, and returns once it is
    /// installed. Interrupting the command cancels the download.
    /// - Throws: The service's error for a tag no model serves; `Failed` with the service's message when the
    ///   download fails or is cancelled.
    func install(_ tag: String, progressBar: ProgressBar) async throws(BusError) -> String {
        let events = try await bus.signals(
            matching: MatchRule(sender: NotulaBus.name, path: NotulaBus.modelsPath, interface: Models.name),
            MatchRule(sender: NotulaBus.name, path: NotulaBus.modelsPath, interface: Self.properties, member: "PropertiesChanged"))
        try await call(.install, [.string(tag)])
        // The service's own spelling of the tag, which its signals carry.
        let wanted = tag.replacing("_", with: "-").lowercased()
        let locale = try await property(.supportedLocales, as: [String].self).first { $0.lowercased() == wanted } ?? tag
        if try await property(.installedLocales, as: [String].self).contains(locale) {
            return "The model for \(locale) is installed"
        }
        let interrupt = cancelOnInterrupt()
        defer { interrupt.cancel() }
        for await message in events {
            switch message.member.flatMap(MemberName.init).flatMap(Models.Signal.init(rawValue:)) {
            case .downloadStarted? where (try? message.argument(0, as: String.self)) == locale:
                progressBar.total = try? message.argument(2, as: UInt64.self)
            case nil where message.member == "PropertiesChanged":
                let changed = try? message.argument(1, as: [String: Variant].self)
                if let progress = try? changed?[Models.Property.downloadProgress.rawValue]?.get(Double.self) { progressBar.show(progress) }
            case .downloadFinished? where (try? message.argument(0, as: String.self)) == locale:
                progressBar.finish()
                return "Installed \(try message.argument(1, as: String.self)) for \(locale)"
            case .downloadFailed? where (try? message.argument(0, as: String.self)) == locale:
                progressBar.finish()
                throw BusError(.failed, try message.argument(1, as: String.self))
            case .downloadCancelled? where (try? message.argument(0, as: String.self)) == locale:
                progressBar.finish()
                throw BusError(.failed, "The download of the \(locale) model was cancelled")
            default:
                break
            }
        }
        throw BusError(.disconnected, "Lost the connection to the session bus")
    }

    func remove(_ tag: String) async throws(BusError) {
        try await call(.remove, [.string(tag)])
    }

    func cancel() async throws(BusError) {
        try await call(.cancel)
    }

    /// Ctrl-C stops the download the command is showing, not just the command.
    private func cancelOnInterrupt() -> InterruptHandling {
        onInterrupt { [bus] in
            Task {
                _ = try? await bus.call(
                    MethodCall(
                        destination: NotulaBus.name, path: NotulaBus.modelsPath, interface: Models.name,
                        member: Models.Method.cancel.rawValue))
            }
        }
    }

    private func property<T: DBusRepresentable>(_ property: Models.Property, as type: T.Type) async throws(BusError) -> T {
        let reply = try await call(
            NotulaBus.modelsPath, Self.properties, "Get", [.string(Models.name.rawValue), .string(property.rawValue)])
        return try reply.argument(0, as: Variant.self).get(T.self)
    }

    @discardableResult
    private func call(_ method: Models.Method, _ arguments: [Value] = []) async throws(BusError) -> Message {
        try await call(NotulaBus.modelsPath, Models.name, method.rawValue, arguments)
    }

    @discardableResult
    private func call(_ path: ObjectPath, _ interface: InterfaceName, _ member: MemberName, _ arguments: [Value] = [])
        async throws(BusError) -> Message
    {
        try await bus.call(
            MethodCall(destination: NotulaBus.name, path: path, interface: interface, member: member, arguments: arguments))
    }
}
