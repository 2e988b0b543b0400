import FoundationEssentials

/// A model found on disk.
public struct InstalledModel: Sendable, Hashable {
    /// The BCP 47 tag of its language: `en-US`.
    public let locale: String
    /// The model's folder, as libvosk is to be given it.
    public let path: String
    /// The folder's name: `vosk-model-small-en-us-0.15`.
    public let name: String
    /// Read from the name, as Vosk names its kinds: `small`, `big-lgraph` (an `lgraph` part), else `big`.
    public let kind: ModelKind

    public init(locale: String, path: String, name: String, kind: ModelKind? = nil) {
        self.locale = locale
        self.path = path
        self.name = name
        self.kind = kind ?? ModelFolderName(name)?.kind ?? .small
    }

    /// Whether it can follow a recording live: a Vosk model, not one of the accurate pass's.
    public var isLive: Bool { !kind.isAccurate }
}

/// The Vosk models already on this machine, wherever Vosk's tools or Notula put them.
public enum InstalledModels {
    /// Where to look for models, in order of precedence, each once.
    ///
    /// `$VOSK_MODEL_PATH` if set, `/usr/share/vosk` and `~/.cache/vosk` (where Vosk's own tools look and
    /// download to), then `$XDG_DATA_HOME/notula/models` (where Notula installs), `XDG_DATA_HOME` defaulting to
    /// `~/.local/share` and ignored when relative, as the XDG spec says. The folders need not exist.
    /// - Parameter environment: The process environment.
    public static func defaultPlaces(environment: [String: String]) -> [String] {
        func absolute(_ variable: String) -> String? {
            guard let value = environment[variable], value.hasPrefix("/") else { return nil }
            return trimmed(value)
        }
        var places: [String] = []
        if let chosen = environment["VOSK_MODEL_PATH"], !chosen.isEmpty {
            places.append(trimmed(chosen))
        }
        places.append("/usr/share/vosk")
        let home = absolute("HOME")
        if let home {
            places.append(home + "/.cache/vosk")
        }
        if let data = absolute("XDG_DATA_HOME") ?? home.map({ $0 + "/.local/share" }) {
            places.append(data + "/notula/models")
        }
        var seen: Set<String> = []
        return places.filter { seen.insert($0).inserted }
    }

    /// One model per language and region, the best there is, sorted by locale: each locale's first in `all(places:)`.
    ///
    /// The first of `places` that has a model of a locale wins, so that `$VOSK_MODEL_PATH` overrides the rest;
    /// within a place, a small model wins, then the highest version (see `ModelFolderName.isPreferred(to:)`).
    /// - Parameter places: Folders to look in, best first; see `defaultPlaces(environment:)`. Missing or
    ///   unreadable ones are skipped.
    public static func scan(places: [String]) -> [InstalledModel] {
        var seen: Set<String> = []
        return all(places: places).filter { $0.isLive && seen.insert($0.locale).inserted }
    }

    /// Every model in `places`, once per locale it serves, a name found twice taken from the first place; sorted by
    /// locale, and within a locale best first: by the order of `places`, then as `ModelFolderName.isPreferred(to:)` ranks them.
    public static func all(places: [String]) -> [InstalledModel] {
        var names: Set<String> = []
        let found = places.flatMap(models(in:)).filter { names.insert($0.name + " " + $0.locale).inserted }
        let rank = Dictionary(found.enumerated().map { ($1.name, $0) }, uniquingKeysWith: min)
        return found.sorted { $0.locale != $1.locale ? $0.locale < $1.locale : rank[$0.name, default: 0] < rank[$1.name, default: 0] }
    }

    /// The model recordings in `locale` use: the one `chosen` names when it is installed, else the best there is; only
    /// models that follow a recording live count.
    /// - Parameter installed: Models as `all(places:)` gives them.
    public static func inUse(for locale: String, among installed: [InstalledModel], chosen: String?) -> InstalledModel? {
        let ofLocale = installed.filter { $0.locale == locale && $0.isLive }
        return ofLocale.first { $0.name == chosen } ?? ofLocale.first
    }

    /// Every model directly in `place`, the preferred first for each locale; a Whisper or sherpa-onnx model once per
    /// locale it serves.
    ///
    /// A model is a folder, or a symbolic link to one, named as Vosk names models (see `ModelFolderName`) and
    /// holding `am/final.mdl` and `conf/model.conf`: the two files by which libvosk recognises a model's layout.
    /// - Parameter place: A folder; missing or unreadable gives none.
    public static func models(in place: String) -> [InstalledModel] {
        let place = trimmed(place)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: place)) ?? []
        let vosk = names.compactMap(ModelFolderName.init)
            .filter { isModel(atPath: place + "/" + $0.name) }
            .sorted { $0.locale != $1.locale ? $0.locale < $1.locale : $0.isPreferred(to: $1) }
            .map { InstalledModel(locale: $0.locale, path: place + "/" + $0.name, name: $0.name) }
        // A Whisper model is one file serving many locales: listed under each.
        let whisper = names.sorted().flatMap { file in
            guard let model = WhisperModelName(file: file), isFile(atPath: place + "/" + file) else { return [InstalledModel]() }
            return model.locales.map { InstalledModel(locale: $0, path: place + "/" + file, name: model.name, kind: .whisper) }
        }
        // So is a sherpa-onnx model, a folder holding every file its recogniser opens.
        let sherpa = names.sorted().flatMap { folder in
            guard let model = SherpaModelName(folder), SherpaModelFiles.missing(in: place + "/" + folder, of: model.kind) == nil else {
                return [InstalledModel]()
            }
            return model.locales.map { InstalledModel(locale: $0, path: place + "/" + folder, name: folder, kind: model.kind) }
        }
        return vosk + whisper + sherpa
    }

    /// Whether `path` is a file with something in it, links followed.
    static func isFile(atPath path: String) -> Bool {
        var isDirectory = false
        // The size is a UInt: `as? Int` found it only while Foundation, linked, bridged the two through NSNumber.
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory
            && ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt) ?? 0) > 0
    }

    /// Whether `path` holds a model libvosk can be pointed at: `am/final.mdl` and `conf/model.conf`, links followed.
    public static func isModel(atPath path: String) -> Bool {
        ["am/final.mdl", "conf/model.conf"].allSatisfy { file in
            var isDirectory = false
            return FileManager.default.fileExists(atPath: path + "/" + file, isDirectory: &isDirectory) && !isDirectory
        }
    }

    /// `path` without trailing slashes, `/` staying itself.
    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        return path
    }
}
