import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// Whisper base as `scripts/install-whisper-base` converts it: multilingual.
private enum WhisperBase {
    static let file = packageRoot.appendingPathComponent(".build/whisper/ggml-base.bin")
    static var present: Bool { FileManager.default.fileExists(atPath: file.path) }
}

/// A user who speaks English and Dutch: Whisper base (multilingual) writes each utterance in the language it hears,
/// weighed between the two alone, through the real notulad.
@Suite(
    "Two languages in one recording", .serialized, .timeLimit(.minutes(5)), .tags(.modelLoading),
    .enabled(if: WhisperBase.present, "needs Whisper base: scripts/install-whisper-base converts it"))
struct TwoLanguagesTests {
    @Test func eachUtteranceIsWrittenInTheLanguageItWasSpokenInAndTheMemoSaysWhich() async throws {
        // The Korean Vosk model and Whisper base alone: en-US is served by Whisper base.
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        try FileManager.default.createSymbolicLink(at: place.appendingPathComponent("ggml-base.bin"), withDestinationURL: WhisperBase.file)
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: [#""locale": "en-US""#])
        try await service.set(.alsoSpoken, to: .array(element: "s", [.string("nl-NL")]))
        #expect(try [String](dbusValue: try await service.property(.alsoSpoken)) == ["nl-NL"])

        let english = "The patient reports mild chest pain since yesterday evening."
        // espeak-ng's Dutch is not a person's: base hears this sentence as Dutch (0.59, English 0.03), others of its as German.
        let dutch = "De uitslag van het bloedonderzoek is goed, we zien elkaar over drie maanden weer."
        let pause = try silence(seconds: 1)
        let signals = try await service.recorderSignals()
        try await service.recorder(.start)
        for file in [try speech(english, voice: "en-us"), pause, try speech(dutch, voice: "nl"), pause] { try await service.sink?.play(file) }
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        let changes = try await service.signals(of: memo, interface: NotulaBus.memoInterface)
        for await signal in signals where signal.isSignal(.processed) || signal.isSignal(.failed) { break }
        _ = try await service.untilWritten(memo, following: changes)

        let languages = try await utteranceLanguages(of: memo, in: service)
        #expect(
            languages == ["en", "nl"],
            "an utterance in each language: \(languages); \(service.log.split(separator: "\n").filter { $0.contains("tterance") || $0.contains("Whisper") })")
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        let words = Set(WordErrorRate.words(text))
        #expect(words.isSuperset(of: ["patient", "chest", "pain"]), "English in English: \(text)")
        // Base hears espeak-ng's Dutch loosely and not twice alike: its words are Dutch, if not all the ones said.
        let dutchWords: Set = [
            "de", "het", "een", "van", "te", "om", "mee", "elkaar", "zien", "weer", "maanden", "goed", "uitslag", "dat", "hij", "ik",
            "niet", "wij", "zij", "naar", "bij", "voor", "ook", "maar", "nog", "dan",
        ]
        #expect(words.intersection(dutchWords).count >= 3, "Dutch in Dutch, not put into English: \(text)")
    }

    @Test func alsoSpokenIsCheckedKeptAndEmptiedAgain() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path])
        for (bad, reason) in [
            (["xx-YY"], "is not one"), (["nl-NL", "de", "fr", "es", "it"], "at most 4"), (["nl-NL; rm -rf"], "is not one"),
        ] {
            let refused = await #expect(throws: BusError.self) {
                try await service.set(.alsoSpoken, to: .array(element: "s", bad.map(Value.string)))
            }
            #expect(refused?.name.rawValue == "org.freedesktop.DBus.Error.InvalidArgs")
            #expect(refused?.message.contains(reason) == true, "\(refused?.message ?? "")")
        }
        try await service.set(.alsoSpoken, to: .array(element: "s", [.string("nl-NL"), .string("de"), .string("nl-NL")]))
        #expect(try [String](dbusValue: try await service.property(.alsoSpoken)) == ["nl-NL", "de"], "each once")
        #expect(service.stop() == 0)
        let again = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], home: service.home)
        #expect(try [String](dbusValue: try await again.property(.alsoSpoken)) == ["nl-NL", "de"], "kept in settings.json")
        var environment = again.environment
        environment["PATH"] = binaryDirectory.path + ":/usr/bin:/bin"
        let notula = binaryDirectory.appendingPathComponent("notula").path
        #expect(try output(of: [notula, "locale"], environment: environment).hasSuffix(" (also nl-NL, de)\n"))
        #expect(try output(of: [notula, "locale", "ko-KR", "--also", "en-US"], environment: environment) == "ko-KR, also en-US\n")
        #expect(try [String](dbusValue: try await again.property(.alsoSpoken)) == ["en-US"])
        try await again.set(.alsoSpoken, to: .array(element: "s", []))
        #expect(try output(of: [notula, "locale"], environment: environment) == "ko-KR\n")
        let settings = try String(contentsOf: again.home.appendingPathComponent("config/notula/settings.json"), encoding: .utf8)
        #expect(!settings.contains("alsoSpoken"), "\(settings)")
    }

    /// The language of each utterance, as the memo's JSON export gives it.
    private func utteranceLanguages(of memo: ObjectPath, in service: ServiceUnderTest) async throws -> [String] {
        struct Utterance: Decodable { var language: String? }
        struct Document: Decodable { var utteranceModels: [Utterance] }
        let json = try await service.memo(.export, of: memo, [.string("json")]).argument(0, as: String.self)
        return try JSONDecoder().decode(Document.self, from: Data(json.utf8)).utteranceModels.map { $0.language ?? "none" }
    }
}
