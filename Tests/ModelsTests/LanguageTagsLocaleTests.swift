import Models
import Testing

/// Vosk's language codes and BCP 47 tags, both ways, and lenient tag parsing.
struct LanguageTagsLocaleTests {
    static let table: [(code: String, tag: String)] = [
        ("en-us", "en-US"), ("en-in", "en-IN"), ("en-gb", "en-GB"), ("cn", "zh-CN"), ("ru", "ru-RU"),
        ("fr", "fr-FR"), ("de", "de-DE"), ("es", "es-ES"), ("pt", "pt-BR"), ("el-gr", "el-GR"), ("tr", "tr-TR"),
        ("vn", "vi-VN"), ("it", "it-IT"), ("nl", "nl-NL"), ("ca", "ca-ES"), ("ar", "ar-SA"), ("ar-tn", "ar-TN"),
        ("fa", "fa-IR"), ("tl-ph", "tl-PH"), ("uk", "uk-UA"), ("ua", "uk-UA"), ("kz", "kk-KZ"), ("sv", "sv-SE"),
        ("ja", "ja-JP"), ("eo", "eo"), ("hi", "hi-IN"), ("cs", "cs-CZ"), ("pl", "pl-PL"), ("uz", "uz-UZ"),
        ("ko", "ko-KR"), ("br", "br-FR"), ("gu", "gu-IN"), ("tg", "tg-TJ"), ("te", "te-IN"),
    ]

    @Test func everyVoskCodeHasItsTag() {
        for (code, tag) in Self.table {
            #expect(LanguageTags.tag(forVoskCode: code) == tag, "\(code)")
        }
        #expect(Set(Self.table.map(\.code)) == Set(LanguageTags.voskCodes))
    }

    @Test func everyTagLeadsBackToItsCode() {
        for (code, tag) in Self.table {
            #expect(LanguageTags.voskCodes(forTag: tag).contains(code), "\(tag)")
        }
    }

    @Test(arguments: [
        ("en-US", ["en-us"]), ("en_us", ["en-us"]), ("en", ["en-us"]), ("zh-CN", ["cn"]), ("zh", ["cn"]),
        ("vi-VN", ["vn"]), ("kk-KZ", ["kz"]), ("uk-UA", ["uk", "ua"]), ("uk", ["uk", "ua"]), ("ko", ["ko"]),
        ("ko-KR", ["ko"]), ("eo", ["eo"]), ("ar", ["ar"]), ("ar-TN", ["ar-tn"]), ("pt-BR", ["pt"]),
        ("pt-PT", []), ("en-AU", []), ("de-AT", []), ("xx", []), ("", []), ("123", []),
    ])
    func tagsLeadToVoskCodes(tag: String, codes: [String]) {
        #expect(LanguageTags.voskCodes(forTag: tag) == codes)
        #expect(LanguageTags.voskCode(forTag: tag) == codes.first)
    }

    @Test func codesTheTableDoesNotKnowAreReadAsTags() {
        #expect(LanguageTags.tag(forVoskCode: "EN-US") == "en-US")
        #expect(LanguageTags.tag(forVoskCode: "en-au") == "en-AU")
        #expect(LanguageTags.tag(forVoskCode: "ky") == "ky")
        #expect(LanguageTags.tag(forVoskCode: "spk") == "spk")
        #expect(LanguageTags.tag(forVoskCode: "") == nil)
        #expect(LanguageTags.tag(forVoskCode: "english") == nil)
    }

    @Test(
        arguments: [
            ("en-US", "en", "US"), ("EN_us", "en", "US"), ("nl_BE", "nl", "BE"), ("ko", "ko", nil),
            ("zh-Hant-TW", "zh", "TW"), ("es-419", "es", "419"), ("ca-ES-valencia", "ca", "ES"),
            ("de-1996", "de", nil), ("en-u-ca-gregory", "en", nil), ("fil-PH", "fil", "PH"),
        ] as [(String, String, String?)])
    func parsesTagsLeniently(text: String, language: String, region: String?) throws {
        let tag = try #require(LanguageTag(parsing: text))

        #expect(tag.language == language)
        #expect(tag.region == region)
    }

    @Test(arguments: ["", "e", "english", "en-", "-US", "en--US", "en-US!", "1a-US", "en US", "en-abcdefghi"])
    func rejectsWhatIsNoTag(text: String) {
        #expect(LanguageTag(parsing: text) == nil)
    }

    @Test func writesTagsAsBCP47Does() {
        #expect(LanguageTag(parsing: "EN_us")?.description == "en-US")
        #expect(LanguageTag(parsing: "eo")?.description == "eo")
        #expect(LanguageTag(language: "NL", region: "be")?.description == "nl-BE")
        #expect(LanguageTag(language: "n1") == nil)
        #expect(LanguageTag(language: "nl", region: "BEL") == nil)
    }

    @Test(
        arguments: [
            ("en-IN", ["en-US", "en-IN"], "en-IN"),
            ("en-AU", ["en-IN", "en-US"], "en-US"),
            ("en-AU", ["en-IN", "en-GB"], "en-IN"),
            ("en", ["en-IN", "en-US"], "en-US"),
            ("nl_BE", ["de-DE", "nl-NL"], "nl-NL"),
            ("eo-XX", ["eo"], "eo"),
            ("de-DE", ["en-US"], nil),
            ("garbage!", ["en-US"], nil),
            ("pt-PT", ["pt-BR"], "pt-BR"),
            ("en-us", ["EN_US"], "EN_US"),
        ] as [(String, [String], String?)])
    func bestMatchRanksRegionThenMainRegionThenAny(wanted: String, tags: [String], match: String?) {
        #expect(LanguageTags.bestMatch(for: wanted, among: tags) == match)
    }
}
