import DBus

/// `notula models list --all`: a line per model, aligned: locale, name, kind, size, and what it is to this machine.
///
///     ko-KR  vosk-model-small-ko-0.22  small  82 MB on disk, in use, 480 MB in memory when last loaded
///     de-DE  vosk-model-de-0.21        big    1.9 GB to download, gigabytes of memory once loaded
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
    }

    static func render(_ models: [Model], inUse: [String: String], memory: [String: UInt64]) -> [String] {
        let widths = (models.map(\.locale.count).max() ?? 0, models.map(\.name.count).max() ?? 0, models.map(\.kind.count).max() ?? 0)
        return models.map { model in
            var notes = [model.installed ? "\(size(model.bytes)) on disk" : "\(size(model.bytes)) to download"]
            if inUse[model.locale] == model.name { notes.append("in use") }
            if let taken = memory[model.name] {
                notes.append("\(size(taken)) in memory when last loaded")
            } else if model.kind != "small" {
                // Vosk's big models are server models: its own page puts them at up to 16 GB.
                notes.append("gigabytes of memory once loaded")
            }
            let columns = [padded(model.locale, widths.0), padded(model.name, widths.1), padded(model.kind, widths.2)]
            return (columns + [notes.joined(separator: ", ")]).joined(separator: "  ")
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
