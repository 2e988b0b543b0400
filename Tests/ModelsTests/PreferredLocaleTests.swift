import Models
import Testing

/// The dictation language from `LC_ALL`, `LC_MESSAGES` and `LANG`.
struct PreferredLocaleTests {
    static let supported = ["en-IN", "en-US", "ko-KR", "nl-NL", "zh-CN"]

    @Test(
        arguments: [
            (["LANG": "nl_BE.UTF-8"], ["nl-NL"], "nl-NL"),
            (["LANG": "nl_NL.UTF-8"], supported, "nl-NL"),
            (["LANG": "en_IN.UTF-8"], supported, "en-IN"),
            (["LANG": "en_AU.UTF-8"], supported, "en-US"),
            (["LANG": "en_AU.UTF-8"], ["en-IN", "nl-NL"], "en-IN"),
            (["LANG": "de_DE@euro"], ["de-DE"], "de-DE"),
            (["LANG": "de_AT.ISO-8859-1@euro"], ["de-DE", "en-US"], "de-DE"),
            (["LANG": "ko_KR.UTF-8"], supported, "ko-KR"),
            (["LANG": "zh_TW.UTF-8"], supported, "zh-CN"),
            (["LANG": "pt_PT.UTF-8"], ["pt-BR"], "pt-BR"),
            (["LANG": "nl"], supported, "nl-NL"),
        ] as [([String: String], [String], String)])
    func mapsTheLocaleToTheClosestSupportedTag(environment: [String: String], supported: [String], expected: String) {
        #expect(PreferredLocale.fromEnvironment(environment, supported: supported) == expected)
    }

    @Test func lcAllThenLcMessagesThenLang() {
        let all = ["LC_ALL": "ko_KR.UTF-8", "LC_MESSAGES": "nl_NL.UTF-8", "LANG": "zh_CN.UTF-8"]
        #expect(PreferredLocale.fromEnvironment(all, supported: Self.supported) == "ko-KR")

        let messages = ["LC_MESSAGES": "nl_NL.UTF-8", "LANG": "zh_CN.UTF-8", "LC_CTYPE": "ko_KR.UTF-8"]
        #expect(PreferredLocale.fromEnvironment(messages, supported: Self.supported) == "nl-NL")
    }

    @Test(arguments: ["C", "POSIX", "C.UTF-8", "", "???"])
    func passesOverWhatNamesNoLanguage(value: String) {
        let environment = ["LC_ALL": value, "LC_MESSAGES": value, "LANG": "nl_BE.UTF-8"]
        #expect(PreferredLocale.fromEnvironment(environment, supported: Self.supported) == "nl-NL")
    }

    @Test func fallsBackToAmericanEnglish() {
        #expect(PreferredLocale.fromEnvironment([:], supported: Self.supported) == "en-US")
        #expect(PreferredLocale.fromEnvironment(["LANG": "C"], supported: Self.supported) == "en-US")
        #expect(PreferredLocale.fromEnvironment(["LANG": "fr_FR.UTF-8"], supported: Self.supported) == "en-US")
        #expect(PreferredLocale.fromEnvironment(["LANG": "fr_FR.UTF-8"], supported: []) == "en-US")
        // A language the user did not ask for is not chosen just because it is supported.
        #expect(PreferredLocale.fromEnvironment(["LANG": "de_DE.UTF-8"], supported: ["ko-KR"]) == "en-US")
    }

    @Test func readsPOSIXLocaleNames() {
        #expect(PreferredLocale.tag(fromPOSIXLocale: "nl_BE.UTF-8")?.description == "nl-BE")
        #expect(PreferredLocale.tag(fromPOSIXLocale: "de_DE@euro")?.description == "de-DE")
        #expect(PreferredLocale.tag(fromPOSIXLocale: "sr_RS@latin")?.description == "sr-RS")
        #expect(PreferredLocale.tag(fromPOSIXLocale: "eo")?.description == "eo")
        #expect(PreferredLocale.tag(fromPOSIXLocale: "C.UTF-8") == nil)
        #expect(PreferredLocale.tag(fromPOSIXLocale: "POSIX") == nil)
    }
}
