import FoundationEssentials
import Library
import Recording

/// A store in a fresh temporary folder, removed when the test is done with it.
final class TemporaryStore {
    let folder: String
    var path: String { folder + "/library.sqlite3" }

    init() {
        folder = FileManager.default.temporaryDirectory.path + "/notula-library-\(UInt64.random(in: 0 ... .max))"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    func open() throws -> MemoStore { try MemoStore(path: path) }

    /// The names of the files in the folder whose bytes hold `word`, letter case aside.
    func filesHolding(_ word: String) throws -> [String] {
        let wanted = Data(word.lowercased().utf8)
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { name in
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
            let lowered = Data(bytes.map { (65...90).contains($0) ? $0 + 32 : $0 })
            return lowered.range(of: wanted) != nil
        }
    }

    /// A finished memo with `transcript`, its words one second apart.
    /// `written` is the transcript unless given.
    static func memo(_ id: Int64, title: String? = nil, transcript: String, written: String? = nil, status: MemoStatus = .done) -> Memo {
        var memo = Memo(id: String(id), created: id, locale: "en-US", audioFile: "/tmp/\(id).wav", timeZone: .gmt)
        if let title { memo.title = title }
        memo.status = status
        memo.transcript = transcript
        memo.written = written ?? transcript
        memo.words = transcript.split(separator: " ").enumerated().map {
            Word(start: Double($0), end: Double($0) + 0.5, word: String($1), confidence: 1)
        }
        memo.duration = Double(memo.words.count)
        return memo
    }
}
