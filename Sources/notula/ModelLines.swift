import DBus

/// `notula models list --all`: a line per model, aligned: locale, name, kind, size, and what it is to this machine.
///
///     ko-KR  vosk-model-small-ko-0.22  small  82 MB on disk, in use, 480 MB in memory when last loaded
///     de-DE  vosk-model-de-0.21        big    1.9 GB to download, gigabytes of memory once loaded
///     en-US +2   ggml-tiny.en              whisper  78 MB to download
///
/// A Whisper model serves many locales: one line for it, its first locale and how many more.
enum ModelLines {
    /// One of the Models object's AvailableModels.
    struct Model {
        let locale: String
        let name: String
        let kind: String
        let bytes: UInt64
        let installed: Bool

        init(_ fields: DBusStruct<String, String, String, UInt64, Bool>) {
            (locale, name, kind, bytes, installed) = fields.fields
        }

        private init(locale: String, name: String, kind: String, bytes: UInt64, installed: Bool) {
            (self.locale, self.name, self.kind, self.bytes, self.installed) = (locale, name, kind, bytes, installed)
        }

        /// The same model, shown under `locale`.
        func serving(_ locale: String) -> Model {
            Model(locale: locale, name: name, kind: kind, bytes: bytes, installed: installed)
        }
    }

    static func render(_ models: [Model], inUse: [String: String], memory: [String: UInt64]) -> [String] {
        let models = collapsingWhisper(models)
        let widths = (models.map(\.locale.count).max() ?? 0, models.map(\.name.count).max() ?? 0, models.map(\.kind.count).max() ?? 0)
        return models.map { model in
            var notes = [model.installed ? "\(size(model.bytes)) on disk" : "\(size(model.bytes)) to download"]
            if inUse[model.locale] == model.name { notes.append("in use") }
            if let taken = memory[model.name] {
                notes.append("\(size(taken)) in memory when last loaded")
            } else if model.kind != "small" && model.kind != "whisper" {
                // Vosk's big models are server models: its own page puts them at up to 16 GB.
                notes.append("gigabytes of memory once loaded")
            }
            let columns = [padded(model.locale, widths.0), padded(model.name, widths.1), padded(model.kind, widths.2)]
            return (columns + [notes.joined(separator: ", ")]).joined(separator: "  ")
        }
    }

    /// One row per Whisper model, at its first locale's place, the locale followed by how many more it serves.
    private static func collapsingWhisper(_ models: [Model]) -> [Model] {
        let served = Dictionary(grouping: models.filter { $0.kind == "whisper" }, by: \.name).mapValues(\.count)
        var seen: Set<String> = []
        return models.compactMap { model in
            guard model.kind == "whisper" else { return model }
            guard seen.insert(model.name).inserted else { return nil }
            let more = served[model.name, default: 1] - 1
            return more == 0 ? model : model.serving(model.locale + " +\(more)")
        }
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    /// `82 MB`, `1.9 GB`.
    static func size(_ bytes: UInt64) -> String {
        if bytes >= 1_000_000_000 {
            let tenths = bytes / 100_000_000
            return "\(tenths / 10).\(tenths % 10) GB"
        }
        return "\(bytes / 1_000_000) MB"
    }
}
