import Testing

@testable import Writing

/// Spoken punctuation and commands, per language, on the words Vosk gives (lowercase, no punctuation).
@Suite("Dictated words become written text")
struct DictatedTextTests {
    private func english(_ spoken: String, _ replacements: Replacements = .none) -> String {
        DictatedText(locale: "en-US", replacements: replacements).write(spoken.split(separator: " ").map(String.init))
    }

    @Test func englishPunctuationJoinsTheWordBeforeAndStartsSentencesWithACapital() {
        #expect(
            english("hello comma how are you question mark i am fine full stop thanks period") == "Hello, how are you? I am fine. Thanks.")
        #expect(english("wait exclamation mark the list colon milk") == "Wait! The list: milk")
        #expect(english("really exclamation point") == "Really!")
    }

    @Test func linesParagraphsAndQuotes() {
        #expect(english("dear sir comma new line thank you period new paragraph regards") == "Dear sir,\nthank you.\n\nRegards")
        #expect(english("she said open quote no close quote and left") == "She said \"no\" and left")
        #expect(english("open quote yes close quote period") == "\"Yes\".")
        #expect(english("the end new line") == "The end\n", "a command at the end")
    }

    @Test func edgeCases() {
        #expect(english("comma comma") == ",,", "two commands")
        #expect(english("comma and then") == ", and then", "a command at the start joins what came before, without a capital")
        #expect(english("period next") == ". Next")
        #expect(english("") == "")
        #expect(english("new paragraph") == "\n\n")
        #expect(english("Period") == ".", "the recogniser's case does not matter")
        #expect(english("a full") == "A full", "half a command is words")
    }

    @Test func dutch() {
        let dutch = DictatedText(locale: "nl-NL")
        let words =
            "goedemorgen komma hoe gaat het vraagteken prima punt nieuwe alinea de lijst dubbele punt melk nieuwe regel kaas uitroepteken"
        #expect(dutch.write(words.split(separator: " ").map(String.init)) == "Goedemorgen, hoe gaat het? Prima.\n\nDe lijst: melk\nkaas!")
        #expect(DictatedText(locale: "nl-BE").write(["hallo", "punt"]) == "Hallo.")
    }

    @Test func aLanguageWithoutATablePassesItsWordsThrough() {
        #expect(DictatedText(locale: "ko-KR").write(["안녕하세요", "comma", "period"]) == "안녕하세요 comma period")
        #expect(DictatedText(locale: "de-DE").write(["hallo", "komma", "welt"]) == "hallo komma welt")
    }

    @Test func theUsersOwnReplacementsComeFirstInEveryLanguage() {
        let (own, problems) = Replacements.parse("b p\tBP\nmy email\tann@example.org\nperiod\t(period)\n")
        #expect(problems.isEmpty)
        #expect(english("the b p is high period my email period", own) == "The BP is high (period) ann@example.org (period)")
        #expect(english("b p comma normal", own) == "BP, normal", "a written text keeps its case")
        #expect(DictatedText(locale: "ko-KR", replacements: own).write(["혈압", "b", "p"]) == "혈압 BP")
    }
}

@Suite("A replacements file")
struct ReplacementsTests {
    @Test func aBadLineIsToldByItsNumberAndSkipped() {
        let file = "# mine\n\nb p\tBP\nno tab here\n\tno phrase\nb  P\tB.P.\r\nmy email\tann@example.org\ttoo many\nq\tQ"
        let (replacements, problems) = Replacements.parse(file)
        #expect(problems.map(\.line) == [4, 5, 6, 7])
        #expect(problems.map(\.description).first == "line 4: not a spoken phrase, a tab and the written text")
        #expect(replacements.written == [["b", "p"]: "B.P.", ["q"]: "Q"], "the later line of a phrase counts")
    }
}

@Suite("What each word adds")
struct WriteEachTests {
    @Test func theWordsAddUpToTheTextAndACommandAddsAtItsFirstWord() {
        let words = "hello comma new paragraph how are you question mark".split(separator: " ").map(String.init)
        let each = DictatedText(locale: "en").writeEach(words)
        #expect(each == ["Hello", ",", "\n\n", "", "How", " are", " you", "?", ""])
        #expect(each.joined() == DictatedText(locale: "en").write(words))
    }
}

/// What a recogniser or the replacements file wrote never brings a control character of its own: the only ones the
/// written text holds are the line breaks and the Return the user spoke.
@Suite("No control character but those spoken")
struct ControlCharacterTests {
    private let english = DictatedText(locale: "en-US")

    @Test func aWordLosesItsControlCharacters() {
        // What Whisper or a hostile model may put in a word: ESC (wtype would press Escape), BEL, NUL, DEL, and C1.
        let words = ["rm\u{1B}[2~", "the\u{07}", "n\u{00}ul", "del\u{7F}", "c\u{80}one\u{9B}31m", "\u{9F}end"]
        #expect(english.write(words) == "Rm[2~ the nul del cone31m end")
        #expect(english.write(["\u{1B}", "period"]) == ".", "a word that was only a control character is no word")
    }

    @Test func aLineBreakOrTabInAWordIsASpaceAndOnlyASpokenOneBreaksTheLine() {
        #expect(english.write(["echo", "pwned\r"]) == "Echo pwned", "a CR at a word's end")
        #expect(english.write(["echo\npwned", "touch\u{0B}x\u{85}y\u{2028}"]) == "Echo pwned touch x y\u{2028}")
        #expect(english.write(["a\tb"]) == "A b")
        #expect(english.write(["echo", "pwned", "new", "line", "ls"]) == "Echo pwned\nls", "a spoken new line survives")
        #expect(english.write(["echo", "pwned", "new", "paragraph"]) == "Echo pwned\n\n")
    }

    @Test func pressEnterIsTheOnlyReturn() {
        #expect(english.write(["make", "test", "press", "enter"]) == "Make test" + WrittenText.enter)
        #expect(DictatedText(locale: "nl-NL").write(["ls", "druk", "op", "enter", "pwd"]) == "Ls" + WrittenText.enter + "pwd")
        #expect(english.write(["make\r\n"]) == "Make", "a word's CR LF is no Return")
    }

    @Test func aReplacementLosesItsControlCharacters() {
        let (own, problems) = Replacements.parse("sig\tBest,\u{1B}[201~\u{07}\u{00} regards\u{9C}\n")
        #expect(problems.isEmpty)
        #expect(DictatedText(locale: "en-US", replacements: own).write(["sig", "new", "line"]) == "Best,[201~ regards\n")
    }
}
