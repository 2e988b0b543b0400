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
    func locale() async throws(BusError) -> String { try await recorderProperty(.locale, as: String.self) }

    /// Sets the recorder's Locale; the service installs its model when missing.
    /// - Returns: What a person is told: the locale, and whether its model is downloading.
    func setLocale(_ tag: String) async throws(BusError) -> String {
        try await setRecorderProperty(.locale, to: .string(tag))
        let locale = try await locale()
        let downloading = try await property(.downloadingLocale, as: String.self)
        guard downloading == locale else { return locale }
        return "\(locale) (its model is downloading: `notula models install \(locale)` shows the progress)"
    }

    /// The other languages the user speaks (`AlsoSpoken`); nil for none.
    func alsoSpoken() async throws(BusError) -> [String]? {
        let tags = try await recorderProperty(.alsoSpoken, as: [String].self)
        return tags.isEmpty ? nil : tags
    }

    /// Sets the recorder's Locale and the other languages the user speaks (`AlsoSpoken`): none when `others` is empty.
    func setLocale(_ tag: String, also others: [String]) async throws(BusError) -> String {
        try await setRecorderProperty(.alsoSpoken, to: others.dbusValue)
        let locale = try await setLocale(tag)
        return others.isEmpty ? locale : "\(locale), also \(others.joined(separator: ", "))"
    }

    private func recorderProperty<T: DBusRepresentable>(_ property: NotulaBus.Recorder.Property, as type: T.Type) async throws(BusError) -> T {
        let reply = try await call(
            NotulaBus.recorderPath, Self.properties, "Get", [.string(NotulaBus.recorderInterface.rawValue), .string(property.rawValue)])
        return try reply.argument(0, as: Variant.self).get(T.self)
    }

    private func setRecorderProperty(_ property: NotulaBus.Recorder.Property, to value: Value) async throws(BusError) {
        try await call(
            NotulaBus.recorderPath, Self.properties, "Set",
            [.string(NotulaBus.recorderInterface.rawValue), .string(property.rawValue), .variant(value)])
    }

    /// `ko-KR installed`, `en-US available`, `nl-NL downloading 42%`: a line per supported locale.
    /// - Throws: `Failed` saying why there is none, where models are looked for and how to add one, when the
    ///   catalog is out of reach and no model is installed, even after the service looked again.
    func list() async throws(BusError) -> [String] {
        var supported = try await property(.supportedLocales, as: [String].self)
        if supported.isEmpty {
            let whyNoCatalog: String
            do throws(BusError) {
                try await call(.refresh)
                whyNoCatalog = "Vosk's catalog of models lists none"
            } catch { whyNoCatalog = error.message }
            supported = try await property(.supportedLocales, as: [String].self)
            guard !supported.isEmpty else { throw BusError(.failed, Self.noModels(because: whyNoCatalog)) }
        }
        let installed = Set(try await property(.installedLocales, as: [String].self))
        let downloading = try await property(.downloadingLocale, as: String.self)
        let progress = try await property(.downloadProgress, as: Double.self)
        return supported.map { locale in
            if installed.contains(locale) { return "\(locale) installed" }
            if locale == downloading { return "\(locale) downloading \(Int(progress * 100))%" }
            return "\(locale) available"
        }
    }

    /// Why `models list` has nothing to list, and what to do about it. The folders are those of
    /// org.notula.Notula1.Models.xml, as notulad's environment (not this one's) fills them in.
    private static func noModels(because whyNoCatalog: String) -> String {
        """
        no speech model is installed, and Vosk's catalog of models is out of reach (offline?): \(whyNoCatalog)
        notulad looks for models in $VOSK_MODEL_PATH (when set), /usr/share/vosk, ~/.cache/vosk and
        ${XDG_DATA_HOME:-~/.local/share}/notula/models: a folder each, named as Vosk names them (vosk-model-small-en-us-0.15).
        Add one with `notula models install TAG` once online, or unpack one from https://alphacephei.com/vosk/models
        into one of those folders; then run `notula models list` again.
        """
    }

    /// `models list --all`: a line per model a user may choose, `ModelLines` says how.
    func listAll() async throws(BusError) -> [String] {
        return ModelLines.render(
            try await availableModels(), inUse: try await property(.modelsInUse, as: [String: String].self),
            memory: try await property(.measuredMemory, as: [String: UInt64].self))
    }

    /// Installs the model of `tag` (the one named `model`, else its small one), showing the download's progress on
    /// `progressBar`, and returns once it is installed. Interrupting the command cancels the download.
    /// - Throws: The service's error for a tag no model serves; `Failed` with the service's message when the
    ///   download fails or is cancelled.
    func install(_ tag: String, model: String? = nil, progressBar: ProgressBar) async throws(BusError) -> String {
        let events = try await bus.signals(
            matching: MatchRule(sender: NotulaBus.name, path: NotulaBus.modelsPath, interface: Models.name),
            MatchRule(sender: NotulaBus.name, path: NotulaBus.modelsPath, interface: Self.properties, member: "PropertiesChanged"))
        if let model { try await call(.installModel, [.string(tag), .string(model)]) } else { try await call(.install, [.string(tag)]) }
        let locale = try await servicesSpelling(of: tag)
        if try await isInstalled(locale, model) { return "The model \(model.map { $0 + " " } ?? "")for \(locale) is installed" }
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

    func remove(_ tag: String, model: String? = nil) async throws(BusError) {
        if let model { try await call(.removeModel, [.string(tag), .string(model)]) } else { try await call(.remove, [.string(tag)]) }
    }

    /// Makes `model` the one recordings in `tag` use.
    /// - Returns: What a person is told: the choice, and whether the model is downloading.
    func use(_ tag: String, model: String) async throws(BusError) -> String {
        try await call(.useModel, [.string(tag), .string(model)])
        let locale = try await servicesSpelling(of: tag)
        let isWhisper = try await availableModels().contains { $0.name == model && $0.kind == "whisper" }
        let choice =
            model.isEmpty
            ? "No Whisper model writes the recordings in \(locale) again"
            : isWhisper ? "Each utterance recorded in \(locale) is written again by \(model)" : "Recordings in \(locale) use \(model)"
        guard !model.isEmpty, try await !isInstalled(locale, model) else { return choice }
        return "\(choice) once it is downloaded: `notula models install \(locale) --model \(model)` shows the progress"
    }

    private func availableModels() async throws(BusError) -> [ModelLines.Model] {
        try await property(.availableModels, as: [DBusStruct<String, String, String, UInt64, Bool>].self).map(ModelLines.Model.init)
    }

    /// The service's own spelling of the tag, which its signals carry.
    private func servicesSpelling(of tag: String) async throws(BusError) -> String {
        let wanted = tag.replacing("_", with: "-").lowercased()
        return try await property(.supportedLocales, as: [String].self).first { $0.lowercased() == wanted } ?? tag
    }

    /// Whether `model` of `locale` is on disk; any model of it when nil.
    private func isInstalled(_ locale: String, _ model: String?) async throws(BusError) -> Bool {
        guard let model else { return try await property(.installedLocales, as: [String].self).contains(locale) }
        return try await availableModels().contains {
            $0.locale == locale && $0.name == model && $0.installed
        }
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
