import Foundation
import Library

/// Search and List over a library of 100 000 memos of generated text, measured on the store
/// itself (what the bus adds is the round trip measured above).
enum LibrarySearch {
    static let memoCount = 100_000
    static let rounds = 5

    /// Fills a library where a notulad with `home` as its XDG home finds it, measures it, and
    /// returns the report's section with the queries it asked.
    static func run(home: URL) throws -> (report: String, queries: [String]) {
        let store = try MemoStore(path: home.appendingPathComponent("data/notula/library.sqlite3").path)
        var text = GeneratedText()
        let (_, filling) = try timed { () throws(LibraryError) in
            for index in 0..<memoCount {
                var memo = Memo(
                    id: String(1_700_000_000_000_000 + index * 60_000_000), created: Int64(1_700_000_000_000_000 + index * 60_000_000),
                    locale: "en-US", audioFile: "/nowhere/\(index).wav")
                memo.status = .done
                memo.transcript = text.transcript(words: 60 + index % 120)
                memo.written = memo.transcript
                try store.insert(memo)
            }
        }
        let queries = text.queries()
        var searches: [Duration] = []
        var hitCounts: [Int] = []
        var lists: [Duration] = []
        for _ in 0..<rounds {
            for query in queries {
                let (hits, duration) = try timed { () throws(LibraryError) in try store.search(query, limit: 20) }
                searches.append(duration)
                hitCounts.append(hits.count)
                lists.append(try timed { () throws(LibraryError) in try store.list(offset: 0, limit: 50) }.duration)
            }
        }
        let search = Latencies(searches)
        let list = Latencies(lists)
        // `queries()` gives its kinds in turn: the rows per kind show where the tail comes from.
        let kinds = GeneratedText.queryKinds.enumerated().map { kind, name in
            let samples = Latencies(searches.enumerated().filter { $0.offset % GeneratedText.queryKinds.count == kind }.map(\.element))
            return "| … \(name) | \(fixed(microseconds(samples.median), 0)) | \(fixed(microseconds(samples.p99), 0)) |"
        }
        let emptyShare = Double(hitCounts.filter { $0 == 0 }.count) / Double(hitCounts.count)
        return (
            """
            Library: \(memoCount) memos of generated text (60–180 words), filled in \(secondsText(filling)), one transaction each
            | \(queries.count) queries × \(rounds) rounds | median µs | p99 µs |
            |---|---|---|
            | Search(query, 20) (words, two-word AND, prefix*, phrases; \(fixed(emptyShare * 100, 0)) % without hits) | \(fixed(microseconds(search.median), 0)) | \(fixed(microseconds(search.p99), 0)) |
            \(kinds.joined(separator: "\n"))
            | List(0, 50) | \(fixed(microseconds(list.median), 0)) | \(fixed(microseconds(list.p99), 0)) |
            Target: search under 5 ms.
            """, queries
        )
    }
}

/// Text with words drawn from a Zipf-like distribution over a generated vocabulary (some with
/// accents), from a fixed seed so that every run searches the same library.
struct GeneratedText {
    private var state: UInt64 = 0x5eed
    private let vocabulary: [String]

    init() {
        let syllables = ["ka", "lo", "mi", "ne", "su", "ta", "ré", "vi", "do", "pa", "zé", "ri", "no", "ça", "mu", "te"]
        var words: [String] = []
        for first in syllables {
            for second in syllables {
                for third in ["", "n", "s", "l", "ko"] { words.append(first + second + third) }
            }
        }
        vocabulary = words
    }

    private mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }

    /// A word's rank drawn so that rank r comes about 1/r as often.
    private mutating func word() -> String {
        let uniform = Double(next() % 1_000_000) / 1_000_000
        let rank = Int(pow(Double(vocabulary.count), uniform)) - 1
        return vocabulary[min(rank, vocabulary.count - 1)]
    }

    mutating func transcript(words count: Int) -> String {
        (0..<count).map { _ in word() }.joined(separator: " ")
    }

    /// What `queries()` asks, in the order it gives them.
    static let queryKinds = [
        "a common word", "a rare word", "common AND rare", "a rare word's first 3 letters*", "a phrase of 2 drawn words",
    ]

    /// Common and rare words, pairs, prefixes and phrases, the accents left out as a user types.
    mutating func queries() -> [String] {
        var queries: [String] = []
        for index in 0..<50 {
            let plain = { (word: String) in word.replacingOccurrences(of: "é", with: "e").replacingOccurrences(of: "ç", with: "c") }
            let common = plain(vocabulary[index])
            let rare = plain(vocabulary[vocabulary.count - 1 - index * 7])
            queries += [common, rare, "\(common) \(rare)", String(rare.prefix(3)) + "*", "\"\(plain(word())) \(plain(word()))\""]
        }
        return queries
    }
}
