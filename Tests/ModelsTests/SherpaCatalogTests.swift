import Downloading
import Foundation
import Models
import NotulaTestSupport
import TestPasses
import Testing

/// sherpa-onnx's models in the catalogs and on disk: Parakeet and Moonshine, as its published archives unpack.
@Suite("sherpa-onnx's models, listed and found", .tags(.speech))
struct SherpaCatalogTests {
    @Test func theBuiltInListPinsParakeetAndMoonshineArchivesByWholeSHA256() {
        let entries = SherpaCatalog.builtIn.choosable
        #expect(
            entries.map(\.name) == [
                "sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8", "sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8", "sherpa-onnx-moonshine-tiny-en-int8",
                "sherpa-onnx-moonshine-base-en-int8",
            ])
        #expect(entries.map(\.kind) == [.parakeet, .parakeet, .moonshine, .moonshine])
        #expect(
            entries.allSatisfy {
                $0.url.absoluteString == "https://github.com/k2-fsa/sherpa-onnx/releases/download/asr-models/\($0.name).tar.bz2"
            })
        #expect(
            entries.allSatisfy { entry in
                guard case .sha256(let hex) = entry.checksum else { return false }
                return hex.count == 64 && hex.allSatisfy(\.isHexDigit)
            })
        #expect(Set(entries.map(\.checksum)).count == 4 && entries.allSatisfy { $0.size > 100_000_000 })
        // v2 and Moonshine speak English; v3 25 European languages, English among them.
        #expect(entries[0].locales == ["en-US", "en-GB", "en-IN"] && entries[2].locales == entries[0].locales)
        #expect(Set(entries[1].locales).isSuperset(of: ["hr-HR", "de-DE", "uk-UA", "mt-MT", "en-GB", "pt-BR"]) && entries[1].locales.count == 27)
        #expect(!entries[1].locales.contains("nn-NO") && !entries[1].locales.contains("zh-CN"))
    }

    @Test func aSherpaCatalogEntryNeedsASHA256() throws {
        let entry =
            #"{"lang": "en", "name": "sherpa-onnx-moonshine-tiny-en-int8", "url": "https://example.org/m.tar.bz2", "size": 5, "type": "moonshine", "obsolete": "false", SUM}"#
        let digest = String(repeating: "AB", count: 32)
        let catalog = try ModelCatalog(
            json: Data(
                "[\(entry.replacing("SUM", with: "\"sha256\": \"\(digest)\"")), \(entry.replacing("SUM", with: #""sha1": "c78c86eb1a8faa21b369bcd33207cc90d64ae9df""#))]"
                    .utf8))

        #expect(catalog.entries.count == 1)
        #expect(catalog.entries.first?.checksum == .sha256(digest.lowercased()))
        #expect(catalog.entries.first?.locales == ["en-US", "en-GB", "en-IN"] && catalog.entries.first?.locale == nil)
    }

    @Test func aFolderWithEveryFileOfItsKindIsAModelOfItsLanguages() throws {
        let place = TemporaryFolder()
        try folder("sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8", in: place, files: SherpaModelFiles.files(of: .parakeet))
        try folder("sherpa-onnx-moonshine-base-en-int8", in: place, files: SherpaModelFiles.files(of: .moonshine))
        // One file short, or one empty: no model.
        try folder("sherpa-onnx-moonshine-tiny-en-int8", in: place, files: SherpaModelFiles.files(of: .moonshine).dropLast())
        try folder("sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8", in: place, files: SherpaModelFiles.files(of: .parakeet), empty: "joiner.int8.onnx")
        try folder("sherpa-onnx-zipformer-en-2023", in: place, files: SherpaModelFiles.files(of: .parakeet))

        let all = InstalledModels.all(places: [place.path])

        #expect(Set(all.map(\.name)) == ["sherpa-onnx-nemo-parakeet-tdt-0.6b-v3-int8", "sherpa-onnx-moonshine-base-en-int8"])
        #expect(all.filter { $0.locale == "hr-HR" }.map(\.kind) == [.parakeet])
        #expect(Set(all.filter { $0.locale == "en-US" }.map(\.kind)) == [.parakeet, .moonshine])
        #expect(all.allSatisfy { !$0.isLive }, "they write utterances again; none follows a recording")
    }

    private func folder(_ name: String, in place: TemporaryFolder, files: some Sequence<String>, empty: String? = nil) throws {
        try FileManager.default.createDirectory(atPath: place.file(name), withIntermediateDirectories: true)
        for file in files { try Data(file == empty ? [] : [1]).write(to: URL(fileURLWithPath: place.file(name + "/" + file))) }
    }
}
