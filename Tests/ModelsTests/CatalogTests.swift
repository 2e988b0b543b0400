import Foundation
import Models
import Testing

/// Reading Vosk's `model-list.json` and picking a model for a locale, on an excerpt of the real list.
struct CatalogTests {
    /// Real entries of Vosk's list (md5s shortened to fit, still 32 digits), plus an obsolete one, a speaker
    /// model, an odd one and one with a field missing.
    static let fixture = """
        [
          {"lang": "en-us", "lang_text": "English", "name": "vosk-model-small-en-us-0.15",
           "url": "https://alphacephei.com/vosk/models/vosk-model-small-en-us-0.15.zip", "size": 41205931,
           "size_text": "39.3MiB", "md5": "09B239888F633EF3C0E2EF8F1E4A2B1E", "type": "small", "obsolete": "false",
           "version": "0.15"},
          {"lang": "en-us", "lang_text": "English", "name": "vosk-model-en-us-0.22",
           "url": "https://alphacephei.com/vosk/models/vosk-model-en-us-0.22.zip", "size": 1924030423,
           "size_text": "1.8GiB", "md5": "2a8d8a5d9ecb8fb9fb0e1ac14e5a5e87", "type": "big", "obsolete": "false",
           "version": "0.22"},
          {"lang": "en-us", "lang_text": "English", "name": "vosk-model-small-en-us-0.3",
           "url": "https://alphacephei.com/vosk/models/vosk-model-small-en-us-0.3.zip", "size": 37982215,
           "size_text": "36.2MiB", "md5": "a3e1cf4e5a1f5a4a8d7cd6f0d1a2b3c4", "type": "small", "obsolete": "true",
           "version": "0.3"},
          {"lang": "en-in", "lang_text": "Indian English", "name": "vosk-model-small-en-in-0.4",
           "url": "https://alphacephei.com/vosk/models/vosk-model-small-en-in-0.4.zip", "size": 36649209,
           "size_text": "35.0MiB", "md5": "8c3ea6b1ea4d2a7e4b7e1b0e8c55d1a0", "type": "small", "obsolete": "false",
           "version": "0.4"},
          {"lang": "nl", "lang_text": "Dutch", "name": "vosk-model-small-nl-0.22",
           "url": "https://alphacephei.com/vosk/models/vosk-model-small-nl-0.22.zip", "size": 40441176,
           "size_text": "38.6MiB", "md5": "d2f5e1a0b3c4d5e6f708192a3b4c5d6e", "type": "small", "obsolete": "false",
           "version": "0.22"},
          {"lang": "cn", "lang_text": "Chinese", "name": "vosk-model-small-cn-0.22",
           "url": "https://alphacephei.com/vosk/models/vosk-model-small-cn-0.22.zip", "size": 43898754,
           "size_text": "41.9MiB", "md5": "5b6f4a8e3c2d1b0a9f8e7d6c5b4a3f2e", "type": "small", "obsolete": "false",
           "version": "0.22"},
          {"lang": "ko", "lang_text": "Korean", "name": "vosk-model-small-ko-0.22",
           "url": "https://alphacephei.com/vosk/models/vosk-model-small-ko-0.22.zip", "size": 86886346,
           "size_text": "82.9MiB", "md5": "e1b5a0c9d8f7e6a5b4c3d2e1f0a9b8c7", "type": "small", "obsolete": "false",
           "version": "0.22"},
          {"lang": "en-us", "lang_text": "Speaker identification", "name": "vosk-model-spk-0.4",
           "url": "https://alphacephei.com/vosk/models/vosk-model-spk-0.4.zip", "size": 13790826,
           "size_text": "13.2MiB", "md5": "f0e1d2c3b4a5968778695a4b3c2d1e0f", "type": "spk", "obsolete": "false",
           "version": "0.4"},
          {"lang": "de", "lang_text": "German", "name": "vosk-model-small-de-0.15",
           "url": "https://alphacephei.com/vosk/models/vosk-model-small-de-0.15.zip", "size": "44.3MiB",
           "size_text": "44.3MiB", "md5": "4f21f92c0897b48287ef8839420608eb", "type": "small", "obsolete": "false",
           "version": "0.15"},
          {"lang": "fr", "lang_text": "French", "name": "vosk-model-small-fr-0.22",
           "url": "https://alphacephei.com/vosk/models/vosk-model-small-fr-0.22.zip", "size": 42233323,
           "size_text": "40.3MiB", "md5": "0a1b2c3d4e5f60718293a4b5c6d7e8f9", "type": "small", "obsolete": "maybe",
           "version": "0.22"},
          {"lang": "es", "lang_text": "Spanish", "name": "vosk-model-small-es-0.42",
           "url": "https://alphacephei.com/vosk/models/vosk-model-small-es-0.42.zip", "size": 39817833,
           "size_text": "38.0MiB", "type": "small", "obsolete": "false", "version": "0.42"}
        ]
        """

    static func catalog() throws -> ModelCatalog {
        try ModelCatalog(json: Data(fixture.utf8))
    }

    @Test func readsEveryFieldOfAnEntry() throws {
        let entry = try #require(try Self.catalog().entries.first)

        #expect(entry.voskCode == "en-us")
        #expect(entry.languageName == "English")
        #expect(entry.name == "vosk-model-small-en-us-0.15")
        #expect(entry.url.absoluteString == "https://alphacephei.com/vosk/models/vosk-model-small-en-us-0.15.zip")
        #expect(entry.size == 41_205_931)
        #expect(entry.sizeText == "39.3MiB")
        #expect(entry.checksum == .md5("09b239888f633ef3c0e2ef8f1e4a2b1e"))
        #expect(entry.kind == .small)
        #expect(entry.isObsolete == false)
        #expect(entry.version == "0.15")
        #expect(entry.locale == "en-US")
    }

    @Test func entriesWithAMissingOrOddFieldAreLeftOut() throws {
        let names = try Self.catalog().entries.map(\.name)

        #expect(names.count == 8)
        #expect(!names.contains("vosk-model-small-de-0.15"))  // size as text
        #expect(!names.contains("vosk-model-small-fr-0.22"))  // obsolete "maybe"
        #expect(!names.contains("vosk-model-small-es-0.42"))  // no md5
        #expect(names.contains("vosk-model-small-en-us-0.3"))  // obsolete, but well formed
        #expect(names.contains("vosk-model-spk-0.4"))
    }

    @Test func kindsAndObsolescenceAreRead() throws {
        let entries = try Self.catalog().entries

        #expect(entries.first { $0.name == "vosk-model-en-us-0.22" }?.kind == .big)
        #expect(entries.first { $0.name == "vosk-model-spk-0.4" }?.kind == .speaker)
        #expect(entries.first { $0.name == "vosk-model-small-en-us-0.3" }?.isObsolete == true)
    }

    @Test func anObsoleteFlagAsABooleanIsTakenToo() throws {
        let json = Self.fixture.replacingOccurrences(of: "\"obsolete\": \"true\"", with: "\"obsolete\": true")
        let catalog = try ModelCatalog(json: Data(json.utf8))

        #expect(catalog.entries.first { $0.name == "vosk-model-small-en-us-0.3" }?.isObsolete == true)
    }

    @Test(arguments: ["{\"lang\": \"en-us\"}", "not json", "", "[1, 2"])
    func aListThatIsNotAnArrayCannotBeRead(json: String) {
        #expect(throws: CatalogError.self) { try ModelCatalog(json: Data(json.utf8)) }
    }

    @Test func anArrayOfOddEntriesIsAnEmptyCatalog() throws {
        let catalog = try ModelCatalog(json: Data("[1, \"two\", {}, null]".utf8))

        #expect(catalog.entries.isEmpty)
        #expect(catalog.supportedLocales.isEmpty)
        #expect(catalog.model(for: "en-US") == nil)
    }

    @Test(arguments: [
        ("en-US", "vosk-model-small-en-us-0.15"),
        ("en-IN", "vosk-model-small-en-in-0.4"),  // the region's own model before en-us
        ("en_in", "vosk-model-small-en-in-0.4"),
        ("en-AU", "vosk-model-small-en-us-0.15"),  // no en-au: the main region's
        ("en-GB", "vosk-model-small-en-us-0.15"),
        ("en", "vosk-model-small-en-us-0.15"),
        ("nl-NL", "vosk-model-small-nl-0.22"),
        ("nl-BE", "vosk-model-small-nl-0.22"),
        ("zh-CN", "vosk-model-small-cn-0.22"),
        ("zh-Hant-TW", "vosk-model-small-cn-0.22"),
        ("ko", "vosk-model-small-ko-0.22"),
        ("KO-kr", "vosk-model-small-ko-0.22"),
    ])
    func picksTheSmallCurrentModelOfTheClosestRegion(locale: String, name: String) throws {
        #expect(try Self.catalog().model(for: locale)?.name == name)
    }

    @Test(arguments: ["de-DE", "fr-FR", "es-ES", "ja-JP", "", "english", "x"])
    func noModelForALanguageWithoutOne(locale: String) throws {
        #expect(try Self.catalog().model(for: locale) == nil)
    }

    @Test func neverPicksBigObsoleteOrSpeakerModels() throws {
        let catalog = try Self.catalog()
        let onlyOthers = ModelCatalog(entries: catalog.entries.filter { $0.name != "vosk-model-small-en-us-0.15" })

        // en-us is left with a big, an obsolete small and a speaker model: en-in serves instead.
        #expect(onlyOthers.model(for: "en-US")?.name == "vosk-model-small-en-in-0.4")
        let bigOnly = ModelCatalog(entries: catalog.entries.filter { $0.kind != .small || $0.isObsolete })
        #expect(bigOnly.model(for: "en-US") == nil)
        #expect(bigOnly.supportedLocales.isEmpty)
    }

    @Test func ofTwoModelsForATagTheFirstInTheCatalogIsPicked() throws {
        let catalog = try Self.catalog()
        let korean = try #require(catalog.entries.first { $0.voskCode == "ko" })
        var newer = korean
        newer.name = "vosk-model-small-ko-0.42"
        newer.version = "0.42"

        #expect(ModelCatalog(entries: [korean, newer]).model(for: "ko-KR")?.name == "vosk-model-small-ko-0.22")
        #expect(ModelCatalog(entries: [newer, korean]).model(for: "ko-KR")?.name == "vosk-model-small-ko-0.42")
    }

    @Test func supportedLocalesAreTheTagsOfSmallCurrentModelsSortedOnce() throws {
        #expect(try Self.catalog().supportedLocales == ["en-IN", "en-US", "ko-KR", "nl-NL", "zh-CN"])
    }

    @Test func ukrainianUnderEitherCodeIsOneLocale() throws {
        let korean = try #require(try Self.catalog().entries.first { $0.voskCode == "ko" })
        var uk = korean
        uk.voskCode = "uk"
        var ua = korean
        ua.voskCode = "ua"
        ua.name = "vosk-model-small-uk-v3-nano"

        let catalog = ModelCatalog(entries: [ua, uk])
        #expect(catalog.supportedLocales == ["uk-UA"])
        #expect(catalog.model(for: "uk")?.name == "vosk-model-small-uk-v3-nano")
    }
}
