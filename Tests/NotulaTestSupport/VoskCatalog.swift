import Foundation

/// One small model of a catalog made for a test, named `vosk-model-small-LANG-0.22`.
public struct CatalogModel {
    public let lang: String
    public let url: String
    public let size: Int
    public let md5: String

    public init(lang: String, url: String, size: Int = 1000, md5: String = String(repeating: "0", count: 32)) {
        self.lang = lang
        self.url = url
        self.size = size
        self.md5 = md5
    }

    public var name: String { "vosk-model-small-\(lang)-0.22" }
}

/// Vosk's catalog (`model-list.json`) of `models`, as alphacephei.com publishes it.
public func voskCatalog(_ models: [CatalogModel]) throws -> String {
    let entries = models.map { model in
        [
            "lang": model.lang, "lang_text": model.lang, "name": model.name, "obsolete": "false", "type": "small", "url": model.url,
            "size": model.size, "size_text": "\(model.size / 1_000_000)MiB", "md5": model.md5, "version": "0.22",
        ] as [String: Any]
    }
    return String(decoding: try JSONSerialization.data(withJSONObject: entries), as: UTF8.self)
}
