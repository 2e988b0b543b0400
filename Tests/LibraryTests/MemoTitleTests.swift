import Foundation
import Library
import Testing

@Suite("A memo titled from its first words, unless the user named it")
struct MemoTitleTests {
    private func memo() -> Memo { Memo(id: "1", created: 1_764_452_820_000_000, locale: "en-US", audioFile: "/a.wav") }

    @Test func sixWordsAtMostCutAtAWordAndMarked() {
        var memo = memo()
        memo.takeTitle(from: "Patient presents with chest pain, radiating to the left arm.")
        #expect(memo.title == "Patient presents with chest pain, radiating…")
        memo = self.memo()
        memo.takeTitle(from: "Call the pharmacy, please:\nrefill ordered")
        #expect(memo.title == "Call the pharmacy, please: refill ordered")
    }

    @Test func aCutEndsOnTheWordNotItsPunctuation() {
        var memo = memo()
        memo.takeTitle(from: "One, two, three, four, five, six, seven.")
        #expect(memo.title == "One, two, three, four, five, six…")
    }

    @Test func aTextWrittenWithoutSpacesIsCutAtSixtyCharacters() {
        var memo = memo()
        memo.takeTitle(from: String(repeating: "患者胸痛", count: 20))
        #expect(memo.title == String(String(repeating: "患者胸痛", count: 20).prefix(60)) + "…")
    }

    @Test func noWordsAndARenamedMemoKeepTheirTitles() {
        var silent = memo()
        let dated = silent.title
        silent.takeTitle(from: "  \n")
        #expect(silent.title == dated)

        var renamed = memo()
        renamed.title = "Ward round, bed 4"
        renamed.takeTitle(from: "Blood pressure one hundred twenty over eighty")
        #expect(renamed.title == "Ward round, bed 4")
    }
}
