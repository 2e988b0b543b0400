import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// Sets the Recorder's `Vocabulary` over the bus, as `notula vocabulary` does.
private func setVocabulary(_ service: ServiceUnderTest, _ terms: [String]) async throws {
    try await service.call(
        NotulaBus.recorderPath, "org.freedesktop.DBus.Properties", "Set",
        [
            .string(NotulaBus.recorderInterface.rawValue), .string(NotulaBus.Recorder.Property.vocabulary.rawValue),
            .variant(.array(element: "s", terms.map(Value.string))),
        ])
}

private func vocabularyFile(of service: ServiceUnderTest) -> URL {
    service.home.appendingPathComponent("config/notula/vocabulary.txt")
}

@Suite("The user's vocabulary spells their rare words", .serialized, .timeLimit(.minutes(5)), .tags(.modelLoading))
struct VocabularySpellingTests {
    /// A surname and a drug tiny.en misspells on its own ("New Empy Wisen", "met a product") reach the memo's
    /// written text as the user spells them: Whisper prompted with them, and the near miss corrected.
    @Test func rareTermsSpokenAreWrittenInTheVocabularysSpelling() async throws {
        let place = try englishModelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: [#""locale": "en-US""#])
        try await service.models(.useModel, [.string("en-US"), .string("ggml-tiny.en")])
        try await setVocabulary(service, ["Nieuwenhuizen", "metoprolol", "Kowalczyk"])

        let (memo, _) = try await recordAndSend(
            [
                "Doctor Nieuwenhuizen will see the patient again on Friday morning.",
                "Start metoprolol twice a day and check her blood pressure next week.",
            ], to: service)
        try await awaitAccurateText(of: memo, in: service)
        #expect(try await service.property(.status, of: memo) == .string("done"))
        let written = try await service.memo(.export, of: memo, [.string("txt")]).argument(0, as: String.self)
        #expect(written.contains("Nieuwenhuizen") && written.contains("metoprolol"), "\(written)")
    }
}

@Suite("The vocabulary is kept in vocabulary.txt, bounded, and read again when edited")
struct VocabularyFileTests {
    @Test func aSetVocabularyIsKeptPrivateAndABadTermChangesNothing() async throws {
        let service = try await ServiceUnderTest.start()
        #expect(try await service.property(.vocabulary) == .array(element: "s", []))
        try await setVocabulary(service, ["apixaban", " Nieuwenhuizen ", "APIXABAN"])
        #expect(try await service.property(.vocabulary) == .array(element: "s", [.string("apixaban"), .string("Nieuwenhuizen")]))
        let file = vocabularyFile(of: service)
        #expect(try String(contentsOf: file, encoding: .utf8) == "apixaban\nNieuwenhuizen\n")
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int) == 0o600)
        let all = try await service.call(
            NotulaBus.recorderPath, "org.freedesktop.DBus.Properties", "GetAll", [.string(NotulaBus.recorderInterface.rawValue)])
        let names = try all.argument(0, as: [String: Variant].self).keys
        #expect(names.contains("State") && !names.contains("Vocabulary"), "patients' names are read by Get alone: \(names)")

        for (terms, message) in [
            (["ok", "tab\there"], "A vocabulary term may not hold a control character, a tab or a line break"),
            ([String(repeating: "x", count: 65)], "A vocabulary term may have at most 64 characters, not 65"),
            ((0...500).map { "term\($0)" }, "A vocabulary holds at most 500 terms, not 501"),
        ] {
            let refused = await #expect(throws: BusError.self) { try await setVocabulary(service, terms) }
            #expect(refused?.name == .invalidArgs)
            #expect(refused?.message == message)
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == "apixaban\nNieuwenhuizen\n", "a refused vocabulary changes nothing")
    }

    @Test func notulaVocabularyListsAddsAndRemovesTerms() async throws {
        let service = try await ServiceUnderTest.start()
        let notula = binaryDirectory.appendingPathComponent("notula").path
        let environment = service.environment
        #expect(try output(of: [notula, "vocabulary"], environment: environment).hasPrefix("No vocabulary yet"))
        #expect(
            try output(of: [notula, "vocabulary", "add", "metoprolol", "Addison's disease"], environment: environment)
                == "metoprolol: added\nAddison's disease: added\n")
        #expect(
            try output(of: [notula, "vocabulary", "add", "Metoprolol", "Llandudno"], environment: environment)
                == "Metoprolol: already in the vocabulary\nLlandudno: added\n")
        #expect(try output(of: [notula, "vocabulary"], environment: environment) == "metoprolol\nAddison's disease\nLlandudno\n")
        #expect(
            try output(of: [notula, "vocabulary", "remove", "METOPROLOL", "Zwolle"], environment: environment)
                == "METOPROLOL: removed\nZwolle: not in the vocabulary\n")
        let bad = try run(notula, ["vocabulary", "add", String(repeating: "x", count: 65)], environment: environment)
        #expect(bad.status == 2 && bad.errorOutput.contains("at most 64 characters"), "\(bad.errorOutput)")
        #expect(try output(of: [notula, "vocabulary"], environment: environment) == "Addison's disease\nLlandudno\n")
    }

    @Test func aFileEditedByHandIsReadAgainItsBadLinesSkippedAndLogged() async throws {
        let service = try await ServiceUnderTest.start()
        let file = vocabularyFile(of: service)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "# mine\nLlandudno\n\u{1B}[2J\nOuagadougou\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(try await service.property(.vocabulary) == .array(element: "s", [.string("Llandudno"), .string("Ouagadougou")]))
        #expect(service.log.contains("vocabulary.txt: line 3: A vocabulary term may not hold a control character"), "\(service.log)")

        try "Tewkesbury\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(try await service.property(.vocabulary) == .array(element: "s", [.string("Tewkesbury")]))
    }
}
