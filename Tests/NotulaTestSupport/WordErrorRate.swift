import Foundation

/// The word error rate of speech recognised against what was said.
public enum WordErrorRate {
    /// The words the rate counts: lower case, hyphens as spaces, no punctuation.
    public static func words(_ text: String) -> [String] {
        text.lowercased().replacingOccurrences(of: "-", with: " ").split(separator: " ")
            .map { $0.filter { $0.isLetter || $0.isNumber || $0 == "'" } }.filter { !$0.isEmpty }
    }

    /// Word-level edit distance: substitutions, insertions and deletions that make `heard` into `said`.
    public static func errors(_ heard: [String], against said: [String]) -> Int {
        var previous = Array(0...heard.count)
        for (i, word) in said.enumerated() {
            var current = [i + 1]
            for (j, guess) in heard.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (word == guess ? 0 : 1)))
            }
            previous = current
        }
        return previous[heard.count]
    }

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
