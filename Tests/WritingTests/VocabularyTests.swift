import Testing

@testable import Writing

@Suite("A vocabulary is bounded, its file's bad lines skipped")
struct VocabularyTests {
    @Test func termsAreTrimmedAndKeptOnceInTheUsersOrder() throws {
        let vocabulary = try Vocabulary(checking: ["  apixaban ", "Nieuwenhuizen", "APIXABAN", "Addison's disease"])
        #expect(vocabulary.terms == ["apixaban", "Nieuwenhuizen", "Addison's disease"])
        #expect(vocabulary.fileText == "apixaban\nNieuwenhuizen\nAddison's disease\n")
        #expect(Vocabulary.parse(vocabulary.fileText).0 == vocabulary)
    }

    @Test func aBadTermIsRefusedWithAReason() {
        #expect(throws: Vocabulary.Refusal(message: "A vocabulary term is empty")) { try Vocabulary(checking: ["  "]) }
        #expect(throws: Vocabulary.Refusal(message: "A vocabulary term may have at most 64 characters, not 65")) {
            try Vocabulary(checking: [String(repeating: "a", count: 65)])
        }
        #expect(throws: Vocabulary.Refusal.self, "64 characters of 300 bytes each") {
            try Vocabulary(checking: [String(repeating: "a" + String(repeating: "\u{301}", count: 150), count: 64)])
        }
        #expect(throws: Vocabulary.Refusal(message: "A vocabulary term may not hold a control character, a tab or a line break")) {
            try Vocabulary(checking: ["a\u{1B}b"])
        }
        #expect(throws: Vocabulary.Refusal(message: "A vocabulary term may not hold a control character, a tab or a line break")) {
            try Vocabulary(checking: ["one\ntwo"])
        }
        #expect(throws: Vocabulary.Refusal(message: "\"42\" holds no letter: a vocabulary term is a word or a phrase")) {
            try Vocabulary(checking: ["42"])
        }
        #expect(throws: Vocabulary.Refusal(message: "A vocabulary holds at most 500 terms, not 501")) {
            try Vocabulary(checking: (0...500).map { "term\($0)" })
        }
    }

    @Test func aFileEditedByHandKeepsItsGoodLines() {
        let text = "# drugs\nmetoprolol\n\n\tapixaban\u{7}\n" + String(repeating: "x", count: 70) + "\nMetoprolol\r\nZwolle\n"
        let (vocabulary, skipped) = Vocabulary.parse(text)
        #expect(vocabulary.terms == ["metoprolol", "Zwolle"])
        #expect(skipped.map(\.line) == [4, 5])
    }

    @Test func aFileOfTooManyTermsKeepsTheFirst() {
        let (vocabulary, skipped) = Vocabulary.parse((0..<502).map { "term\($0)\n" }.joined())
        #expect(vocabulary.terms.count == Vocabulary.mostTerms)
        #expect(skipped.map(\.line) == [501, 502])
    }
}

@Suite("Words that sound near a vocabulary term take its spelling, only where it is sure")
struct VocabularyCorrectionTests {
    private static let vocabulary = try! Vocabulary(checking: [
        "metoprolol", "apixaban", "Nieuwenhuizen", "Kowalczyk", "Ouagadougou", "Addison's disease", "Ohm", "levetiracetam",
    ])

    private func written(_ spoken: String, locale: String = "en-US") -> String {
        DictatedText(locale: locale, vocabulary: VocabularyCorrection(Self.vocabulary)).write(spoken.split(separator: " ").map(String.init))
    }

    @Test func nearSpellingsAndSplitWordsTakeTheTermsSpelling() {
        #expect(written("Start metaprolol 25 mg twice daily.") == "Start metoprolol 25 mg twice daily.")
        #expect(written("She takes a pixaban at night") == "She takes apixaban at night")
        #expect(written("Mr. Newenhuisen came in.") == "Mr. Nieuwenhuizen came in.")
        #expect(written("Call mr kowalchik today") == "Call mr Kowalczyk today")
        #expect(written("Levitiracetam, then rest.") == "Levetiracetam, then rest.", "a sentence's capital and its comma kept")
        #expect(written("he flew to ouagadugu") == "He flew to Ouagadougou")
        #expect(written("He returned from Wagadougou.") == "He returned from Ouagadougou.", "a French ou before a vowel sounds as w")
    }

    @Test func theTermsOwnWordsTakeItsCase() {
        #expect(written("the ohm meter") == "The Ohm meter")
        #expect(written("signs of addisons disease") == "Signs of Addison's disease")
    }

    @Test func ordinaryWordsAndSentencesWithoutTermsStayAsTheyAre() {
        for sentence in [
            "The patient went home today and felt better.", "Take the metro to the airport.", "A pig is a pink animal.",
            "New when house on the hill.", "He said ohms and watts.", "The doctor ordered a meta analysis.",
            "Walk to the square with your family.",
        ] {
            #expect(written(sentence) == sentence)
        }
        #expect(written("om") == "Om", "a short term is matched only letter for letter")
    }

    @Test func runsDoNotCrossPunctuation() {
        #expect(written("a, pixaban") == "A, pixaban")
    }

    @Test func writeEachGivesTheTermAtItsFirstWord() {
        let text = DictatedText(locale: "en-US", vocabulary: VocabularyCorrection(Self.vocabulary))
        #expect(text.writeEach(["take", "a", "pixaban", "period"]) == ["Take", " apixaban", "", "."])
        #expect(
            text.writeEach(["take", "a", "pixaban", "period"], typed: 2) == ["Take", " a", " pixaban", "."],
            "a word typed already is not joined to the next: the typed text keeps every word")
        #expect(text.writeEach(["b", "new", "line"], typed: 2) == ["B", " new", " line"], "nor is a spoken command's")
    }

    @Test func soundKeysJoinSpellingsOfOneSound() {
        func key(_ word: String) -> String { String(decoding: SoundKey.of(SoundKey.letters(of: Substring(word))!), as: UTF8.self) }
        #expect(key("metoprolol") == key("metaprolol"))
        #expect(key("phenytoin") == key("fenitoin"))
        #expect(key("metoprolol") != key("metro"))
        #expect(SoundKey.letters(of: "Zürich") == Array("zurich".utf8))
        #expect(SoundKey.letters(of: "B12") == nil)
    }
}
