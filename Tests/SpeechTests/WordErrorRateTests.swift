import NotulaTestSupport
import Testing

/// The scoring of the accuracy tables: a numeral counts as the words a reader's transcript has.
@Suite("Words wrong, as the accuracy tables count them")
struct WordErrorRateTests {
    @Test func numeralsCountAsTheirWordsAndNothingElseChanges() {
        #expect(WordErrorRate.words("Go forward 10 meters.") == ["go", "forward", "ten", "meters"])
        #expect(WordErrorRate.words("7 of clubs, 45 and 0") == ["seven", "of", "clubs", "forty", "five", "and", "zero"])
        #expect(WordErrorRate.words("in 2026, 100 times") == ["in", "2026", "100", "times"], "100 and up stay as written")
        #expect(WordErrorRate.errors(WordErrorRate.words("Eight of spades, 4 of hearts"), against: WordErrorRate.words("eight of spades four of hearts")) == 0)
        #expect(WordErrorRate.errors(["a", "b"], against: ["a", "c", "b"]) == 1)
    }
}
