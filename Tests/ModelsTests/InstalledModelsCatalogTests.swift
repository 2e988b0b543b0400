import Foundation
import Models
import TestPasses
import Testing

/// Finding models on disk: folder names, the files that make a model, places and precedence.
@Suite(.tags(.speech))
struct InstalledModelsCatalogTests {
    @Test(
        arguments: [
            ("vosk-model-small-en-us-0.15", "en-us", "en-US", true, "0.15"),
            ("vosk-model-small-ko-0.22", "ko", "ko-KR", true, "0.22"),
            ("vosk-model-en-us-0.22-lgraph", "en-us", "en-US", false, "0.22"),
            ("vosk-model-small-cn-0.22", "cn", "zh-CN", true, "0.22"),
            ("vosk-model-el-gr-0.7", "el-gr", "el-GR", false, "0.7"),
            ("vosk-model-small-sv-rhasspy-0.15", "sv", "sv-SE", true, "0.15"),
            ("vosk-model-small-cs-0.4-rhasspy", "cs", "cs-CZ", true, "0.4"),
            ("vosk-model-small-uk-v3-nano", "uk", "uk-UA", true, "v3"),
            ("vosk-model-tl-ph-generic-0.6", "tl-ph", "tl-PH", false, "0.6"),
            ("vosk-model-small-ar-tn-0.1-linto", "ar-tn", "ar-TN", true, "0.1"),
            ("vosk-model-small-kz-0.15", "kz", "kk-KZ", true, "0.15"),
            ("vosk-model-en-us-daanzu-20200905", "en-us", "en-US", false, "20200905"),
            ("vosk-model-eo", "eo", "eo", false, nil),
            ("vosk-model-small-ky-0.42", "ky", "ky", true, "0.42"),
        ] as [(String, String, String, Bool, String?)])
    func readsVoskFolderNames(name: String, code: String, locale: String, isSmall: Bool, version: String?) throws {
        let folder = try #require(ModelFolderName(name))

        #expect(folder.name == name)
        #expect(folder.voskCode == code)
        #expect(folder.locale == locale)
        #expect(folder.isSmall == isSmall)
        #expect(folder.version == version)
    }

    @Test(arguments: [
        "vosk-model-spk-0.4", "vosk-model-small", "vosk-model-", "vosk-model-small-", "model-small-en-us-0.15",
        "vosk-model-small-en-us-0.15 (copy)", "vosk-model--en-us", "vosk-model-small-english-0.1", "README",
        ".vosk-model-small-en-us-0.15", "vosk-model-123-0.1",
    ])
    func rejectsOtherFolderNames(name: String) {
        #expect(ModelFolderName(name) == nil)
    }

    @Test func prefersSmallThenTheHigherVersion() throws {
        func name(_ text: String) throws -> ModelFolderName { try #require(ModelFolderName(text)) }
        let small15 = try name("vosk-model-small-en-us-0.15")
        let small4 = try name("vosk-model-small-en-us-0.4")
        let big22 = try name("vosk-model-en-us-0.22-lgraph")

        #expect(small15.isPreferred(to: small4))  // 0.15 is above 0.4
        #expect(!small4.isPreferred(to: small15))
        #expect(small4.isPreferred(to: big22))
        #expect(!small15.isPreferred(to: small15))
    }

    @Test func findsModelFoldersAndLinksToThem() throws {
        let root = try ScratchTree()
        defer { root.remove() }
        try root.model("first/vosk-model-small-en-us-0.15")
        try root.model("first/vosk-model-small-nl-0.22")
        try root.model("elsewhere/vosk-model-small-ko-0.22")
        try root.link("first/vosk-model-small-ko-0.22", to: "elsewhere/vosk-model-small-ko-0.22")
        try root.folder("first/vosk-model-small-de-0.15/am")  // unpacked halfway: no model
        try root.folder("first/vosk-model-spk-0.4/am")
        try root.model("first/not-a-vosk-model")
        try root.file("first/vosk-model-small-fr-0.22")  // a file, not a folder

        let models = InstalledModels.scan(places: [root.path("first")])

        #expect(
            models == [
                InstalledModel(locale: "en-US", path: root.path("first/vosk-model-small-en-us-0.15"), name: "vosk-model-small-en-us-0.15"),
                InstalledModel(locale: "ko-KR", path: root.path("first/vosk-model-small-ko-0.22"), name: "vosk-model-small-ko-0.22"),
                InstalledModel(locale: "nl-NL", path: root.path("first/vosk-model-small-nl-0.22"), name: "vosk-model-small-nl-0.22"),
            ])
    }

    @Test func aSpeakerModelWithTheRightFilesIsStillSkipped() throws {
        let root = try ScratchTree()
        defer { root.remove() }
        try root.model("place/vosk-model-spk-0.4")

        #expect(InstalledModels.scan(places: [root.path("place")]).isEmpty)
    }

    @Test func theFirstPlaceWinsThenSmallThenTheHighestVersion() throws {
        let root = try ScratchTree()
        defer { root.remove() }
        try root.model("a/vosk-model-en-us-0.22-lgraph")
        try root.model("a/vosk-model-small-en-us-0.4")
        try root.model("a/vosk-model-small-en-us-0.15")
        try root.model("b/vosk-model-small-en-us-0.42")
        try root.model("b/vosk-model-small-cn-0.22")
        try root.model("c/vosk-model-small-cn-0.3")

        let models = InstalledModels.scan(places: [root.path("missing"), root.path("a"), root.path("b/"), root.path("c")])

        #expect(models.map(\.name) == ["vosk-model-small-en-us-0.15", "vosk-model-small-cn-0.22"])
        #expect(models.map(\.path) == [root.path("a/vosk-model-small-en-us-0.15"), root.path("b/vosk-model-small-cn-0.22")])
        #expect(
            InstalledModels.models(in: root.path("a")).map(\.name) == [
                "vosk-model-small-en-us-0.15", "vosk-model-small-en-us-0.4", "vosk-model-en-us-0.22-lgraph",
            ])
    }

    @Test func aBigModelAloneIsFound() throws {
        let root = try ScratchTree()
        defer { root.remove() }
        try root.model("a/vosk-model-en-us-0.22-lgraph")

        #expect(InstalledModels.scan(places: [root.path("a")]).map(\.locale) == ["en-US"])
    }

    @Test func noPlacesOrMissingPlacesGiveNoModels() {
        #expect(InstalledModels.scan(places: []).isEmpty)
        #expect(InstalledModels.scan(places: ["/nonexistent/notula-catalog-tests"]).isEmpty)
    }

    @Test func defaultPlacesInOrder() {
        let all = InstalledModels.defaultPlaces(environment: [
            "VOSK_MODEL_PATH": "/opt/models/", "HOME": "/home/ada", "XDG_DATA_HOME": "/data/ada",
        ])
        #expect(all == ["/opt/models", "/usr/share/vosk", "/home/ada/.cache/vosk", "/data/ada/notula/models"])

        let plain = InstalledModels.defaultPlaces(environment: ["HOME": "/home/ada", "VOSK_MODEL_PATH": ""])
        #expect(plain == ["/usr/share/vosk", "/home/ada/.cache/vosk", "/home/ada/.local/share/notula/models"])

        let relative = InstalledModels.defaultPlaces(environment: ["HOME": "/home/ada", "XDG_DATA_HOME": "data"])
        #expect(relative == ["/usr/share/vosk", "/home/ada/.cache/vosk", "/home/ada/.local/share/notula/models"])

        #expect(InstalledModels.defaultPlaces(environment: [:]) == ["/usr/share/vosk"])
        #expect(InstalledModels.defaultPlaces(environment: ["VOSK_MODEL_PATH": "/usr/share/vosk"]) == ["/usr/share/vosk"])
    }

    @Test func theDefaultPlacesAreScannedInTheirOrder() throws {
        let root = try ScratchTree()
        defer { root.remove() }
        try root.model("home/.cache/vosk/vosk-model-small-ko-0.22")
        try root.model("home/.local/share/notula/models/vosk-model-small-ko-0.22")
        try root.model("home/.local/share/notula/models/vosk-model-small-nl-0.22")

        let places = InstalledModels.defaultPlaces(environment: ["HOME": root.path("home")])
        let models = InstalledModels.scan(places: places)

        #expect(
            models.map(\.path) == [
                root.path("home/.cache/vosk/vosk-model-small-ko-0.22"),
                root.path("home/.local/share/notula/models/vosk-model-small-nl-0.22"),
            ])
    }
}

/// A throwaway folder tree under the system's temporary folder.
private struct ScratchTree {
    let root: String

    init() throws {
        root = FileManager.default.temporaryDirectory.path + "/notula-catalog-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    func path(_ relative: String) -> String { root + "/" + relative }

    func folder(_ relative: String) throws {
        try FileManager.default.createDirectory(atPath: path(relative), withIntermediateDirectories: true)
    }

    func file(_ relative: String) throws {
        try folder((relative as NSString).deletingLastPathComponent)
        try Data("x".utf8).write(to: URL(fileURLWithPath: path(relative)))
    }

    /// The files a model's folder is recognised by, and none of its weight.
    func model(_ relative: String) throws {
        try file(relative + "/am/final.mdl")
        try file(relative + "/conf/model.conf")
        try folder(relative + "/graph")
    }

    func link(_ relative: String, to target: String) throws {
        try folder((relative as NSString).deletingLastPathComponent)
        try FileManager.default.createSymbolicLink(atPath: path(relative), withDestinationPath: path(target))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: root)
    }
}

@Suite("Several models of one locale, and the one in use", .tags(.speech))
struct SeveralModelsTests {
    @Test func everyModelIsListedEachNameOnceBestFirstWithItsKind() throws {
        let root = try ScratchTree()
        defer { root.remove() }
        try root.model("a/vosk-model-en-us-0.22-lgraph")
        try root.model("a/vosk-model-small-en-us-0.15")
        try root.model("b/vosk-model-en-us-0.22")
        try root.model("b/vosk-model-small-en-us-0.15")
        try root.model("b/vosk-model-small-ko-0.22")

        let all = InstalledModels.all(places: [root.path("a"), root.path("b")])

        #expect(
            all.map(\.name) == [
                "vosk-model-small-en-us-0.15", "vosk-model-en-us-0.22-lgraph", "vosk-model-en-us-0.22", "vosk-model-small-ko-0.22",
            ])
        #expect(all.map(\.kind) == [.small, .bigLgraph, .big, .small])
        #expect(all[0].path == root.path("a/vosk-model-small-en-us-0.15"), "a name found twice is the first place's")
        #expect(
            InstalledModels.scan(places: [root.path("a"), root.path("b")]).map(\.name) == [
                "vosk-model-small-en-us-0.15", "vosk-model-small-ko-0.22",
            ])
    }

    @Test func theChosenModelIsInUseWhileItIsThereElseTheBest() throws {
        let root = try ScratchTree()
        defer { root.remove() }
        try root.model("a/vosk-model-small-en-us-0.15")
        try root.model("a/vosk-model-en-us-0.22")
        let all = InstalledModels.all(places: [root.path("a")])

        #expect(InstalledModels.inUse(for: "en-US", among: all, chosen: "vosk-model-en-us-0.22")?.name == "vosk-model-en-us-0.22")
        #expect(InstalledModels.inUse(for: "en-US", among: all, chosen: nil)?.name == "vosk-model-small-en-us-0.15")
        #expect(
            InstalledModels.inUse(for: "en-US", among: all, chosen: "vosk-model-en-us-0.42-gigaspeech")?.name
                == "vosk-model-small-en-us-0.15")
        #expect(InstalledModels.inUse(for: "en-US", among: all, chosen: "vosk-model-small-ko-0.22")?.name == "vosk-model-small-en-us-0.15")
        #expect(InstalledModels.inUse(for: "nl-NL", among: all, chosen: nil) == nil)
    }
}

@Suite("Whisper's ggml files among the models, and the locales they serve", .tags(.speech))
struct WhisperFilesTests {
    @Test func whisperFilesAreListedPerLocaleButNeverFollowARecording() throws {
        let root = try ScratchTree()
        defer { root.remove() }
        try root.model("a/vosk-model-small-en-us-0.15")
        for file in ["a/ggml-tiny.en.bin", "a/ggml-base.en-q5_1.bin", "a/ggml-small.bin", "a/ggml-empty.en.bin", "a/notes.en.bin"] {
            try root.file(file)
        }
        // An empty file is no model.
        try Data().write(to: URL(fileURLWithPath: root.path("a/ggml-empty.en.bin")))

        let all = InstalledModels.all(places: [root.path("a")])
        let english = all.filter { $0.locale == "en-US" }

        #expect(english.map(\.name) == ["vosk-model-small-en-us-0.15", "ggml-base.en-q5_1", "ggml-small", "ggml-tiny.en"])
        #expect(english.map(\.kind) == [.small, .whisper, .whisper, .whisper])
        // The English-only ones serve English only; the multilingual one every language Whisper knows.
        #expect(Set(all.filter { $0.name == "ggml-tiny.en" }.map(\.locale)) == ["en-US", "en-GB", "en-IN"])
        let multilingual = Set(all.filter { $0.name == "ggml-small" }.map(\.locale))
        #expect(multilingual.isSuperset(of: ["de-DE", "ko-KR", "jv-ID", "yue-HK", "la", "en-GB"]) && multilingual.count == 102)
        #expect(InstalledModels.scan(places: [root.path("a")]).map(\.name) == ["vosk-model-small-en-us-0.15"])
        #expect(InstalledModels.inUse(for: "en-US", among: all, chosen: "ggml-tiny.en")?.name == "vosk-model-small-en-us-0.15")
        #expect(InstalledModels.inUse(for: "de-DE", among: all, chosen: "ggml-small") == nil)
    }

    @Test(arguments: [("de-AT", "de"), ("jv-ID", "jw"), ("yue-HK", "yue"), ("zh_TW", "zh"), ("en", "en"), ("xx-XX", nil), ("eo", nil)])
    func aLocaleIsDecodedInItsLanguageWhisperCode(tag: String, code: String?) {
        #expect(WhisperLanguages.code(forTag: tag) == code)
    }

    @Test func everyLanguageServedMapsBackToItsCode() {
        let all = WhisperLanguages.locales(ofModelLanguage: "multi")
        #expect(all.count == 102 && Set(all).count == 102)
        #expect(all.allSatisfy { WhisperLanguages.code(forTag: $0) != nil })
        #expect(WhisperLanguages.locales(ofModelLanguage: "xx").isEmpty)
    }

    @Test func theBuiltInListServesEnglishOrEveryLanguageWithWholeSha1SumsAtAPinnedRevision() {
        let entries = WhisperCatalog.builtIn.choosable
        let sizes = ["tiny", "tiny.en", "base", "base.en", "small", "small.en"]
        #expect(
            entries.map(\.name) == sizes.map { "ggml-" + $0 }
                + sizes.flatMap { size in
                    ["q5_1", "q8_0"].map { "ggml-\(size)-\($0)" }
                })
        #expect(entries.allSatisfy { $0.kind == .whisper && $0.url.scheme == "https" })
        // Every one checked against its whole SHA-1, fetched from one commit of the publisher's repository.
        #expect(Set(entries.map(\.checksum)).count == entries.count)
        #expect(
            entries.allSatisfy { entry in
                guard case .sha1(let hex) = entry.checksum else { return false }
                return hex.count == 40 && hex.allSatisfy(\.isHexDigit)
            })
        #expect(
            entries.allSatisfy {
                $0.url.absoluteString
                    == "https://huggingface.co/ggerganov/whisper.cpp/resolve/5359861c739e955e79d9a303bcbc70fb988958b1/\($0.name).bin"
            })
        #expect(entries[1].locales == ["en-US", "en-GB", "en-IN"] && entries[0].locales.count == 102)
    }

    @Test func aWhisperCatalogEntryNeedsASha1InPlaceOfAnMD5() throws {
        let entry =
            #"{"lang": "en", "name": "ggml-tiny.en", "url": "https://example.org/ggml-tiny.en.bin", "size": 77704715, "type": "whisper", "obsolete": "false", SUM}"#
        let good = entry.replacing("SUM", with: #""sha1": "C78C86EB1A8FAA21B369BCD33207CC90D64AE9DF""#)
        let catalog = try ModelCatalog(
            json: Data("[\(good), \(entry.replacing("SUM", with: #""md5": "09b239888f633ef3c0e2ef8f1e4a2b1e""#))]".utf8))

        #expect(catalog.entries.count == 1)
        #expect(catalog.entries.first?.checksum == .sha1("c78c86eb1a8faa21b369bcd33207cc90d64ae9df"))
        #expect(catalog.entries.first?.locales == ["en-US", "en-GB", "en-IN"] && catalog.entries.first?.locale == nil)
        #expect(catalog.supportedLocales.isEmpty, "a Whisper model alone records in no locale yet")
    }
}

@Suite("sherpa-onnx's model folders among the models, and the locales they serve")
struct SherpaFoldersTests {
    @Test func anArchiveFolderWithEveryFileIsListedPerLocaleButNeverFollowsARecording() throws {
        let root = try ScratchTree()
        defer { root.remove() }
        try root.model("a/vosk-model-small-en-us-0.15")
        let parakeet = ["encoder.int8.onnx", "decoder.int8.onnx", "joiner.int8.onnx", "tokens.txt"]
        let moonshine = ["preprocess.onnx", "encode.int8.onnx", "uncached_decode.int8.onnx", "cached_decode.int8.onnx", "tokens.txt"]
        for (folder, files) in [
            ("sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8", parakeet), ("sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8", parakeet),
            ("sherpa-onnx-moonshine-tiny-en-int8", moonshine),
            // Not a name of sherpa-onnx's archives Notula runs; an archive without its tokens.
            ("sherpa-onnx-nemo-parakeet-tdt-0.6b-v9-int8", parakeet), ("sherpa-onnx-moonshine-base-en-int8", Array(moonshine.dropLast())),
        ] {
            for file in files { try root.file("a/\(folder)/\(file)") }
        }

        let all = InstalledModels.all(places: [root.path("a")])

        #expect(
            all.filter { $0.locale == "en-US" }.map(\.name) == [
                "vosk-model-small-en-us-0.15", "sherpa-onnx-moonshine-tiny-en-int8", "sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8",
                "sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8",
            ])
        #expect(all.filter { $0.name.hasPrefix("sherpa-onnx-nemo") }.allSatisfy { $0.kind == .parakeet })
        #expect(all.first { $0.name == "sherpa-onnx-moonshine-tiny-en-int8" }?.kind == .moonshine)
        #expect(Set(all.filter { $0.name == "sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8" }.map(\.locale)) == ["en-US", "en-GB", "en-IN"])
        let european = Set(all.filter { $0.name == "sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8" }.map(\.locale))
        #expect(european.isSuperset(of: ["nl-NL", "de-DE", "hr-HR", "mt-MT", "uk-UA", "en-GB", "pt-BR"]) && european.count == 27, "\(european)")
        #expect(all.first { $0.name == "sherpa-onnx-moonshine-tiny-en-int8" }.map { $0.path.hasSuffix("a/sherpa-onnx-moonshine-tiny-en-int8") } == true)
        #expect(InstalledModels.scan(places: [root.path("a")]).map(\.name) == ["vosk-model-small-en-us-0.15"])
        #expect(InstalledModels.inUse(for: "nl-NL", among: all, chosen: "sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8") == nil)
    }
}
