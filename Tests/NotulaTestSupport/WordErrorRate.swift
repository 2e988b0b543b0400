import Foundation
import Writing

/// The word error rate of speech recognised against what was said.
public enum WordErrorRate {
    /// The words the rate counts: lower case, hyphens as spaces, no punctuation, a numeral below 100 as its English
    /// words (Whisper writes "10 meters" where a reader's transcript says "ten meters").
    public static func words(_ text: String) -> [String] {
        text.lowercased().replacingOccurrences(of: "-", with: " ").split(separator: " ")
            .map { $0.filter { $0.isLetter || $0.isNumber || $0 == "'" } }.filter { !$0.isEmpty }
            .flatMap { word in Int(word).flatMap(spelledOut) ?? [word] }
    }

    private static let units = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen",
        "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen",
    ]
    private static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    /// `number`'s English words below 100; nil above.
    static func spelledOut(_ number: Int) -> [String]? {
        switch number {
        case 0..<20: [units[number]]
        case 20..<100: [tens[number / 10]] + (number % 10 == 0 ? [] : [units[number % 10]])
        default: nil
        }
    }

    /// Word-level edit distance: substitutions, insertions and deletions that make `heard` into `said`.
    public static func errors(_ heard: [String], against said: [String]) -> Int { EditDistance.between(said, heard) }

    /// English sentences for espeak-ng's American voice: three that tiny.en writes exactly (the probe of
    /// ../shared/tools/whisper-model), then five of ours.
    public static let exactSentences = [
        "The patient reports mild chest pain since yesterday evening.",
        "Please schedule a follow-up appointment in two weeks and order a complete blood count.",
        "We need to finish the quarterly report before the meeting on Thursday afternoon.",
    ]
    public static let ownSentences = [
        "Please call the pharmacy about the new prescription.",
        "The wound is healing well and the stitches can come out on Monday.",
        "She has no known allergies to any medication.",
        "Take two tablets every morning with a glass of water.",
        "The scan shows no sign of a fracture in the left wrist.",
    ]
}
