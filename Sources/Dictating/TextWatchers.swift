import FoundationEssentials
import Recording
import Speech

#if canImport(Glibc)
    import Glibc
#endif

/// The live text of recordings for the clients that asked (`WatchText`): one JSON object a line on each one's own
/// pipe, never in a signal the whole bus hears.
public final class TextWatchers: LiveTextListener {
    /// Readers at once, all clients together: each costs a pipe and a copy of every line.
    public static let mostReaders = 16

    private let readers: PipeReaders<LiveTextForm>
    private let memoPath: @Sendable (RecordingID) -> String

    /// - Parameters:
    ///   - memoPath: how a recording's memo is named in the line that ends its text.
    ///   - changes: told when a reader comes or goes.
    public init(memoPath: @escaping @Sendable (RecordingID) -> String, changes: ListenerChanges? = nil) {
        readers = PipeReaders(of: .text, mostReaders: Self.mostReaders, changes: changes)
        self.memoPath = memoPath
    }

    public var isFollowed: Bool { !readers.isEmpty }

    /// Who reads the live text now.
    public var listeners: [Listener] { readers.listeners }

    /// A new reader for `caller`: the read end of a pipe (close-on-exec, the caller's to own) on which the text of the
    /// recording under way and of those after it arrives, until the reader closes it.
    /// - Throws: `ReaderError.tooMany` when `mostReaders` read already, `.noPipe` when no pipe can be made.
    public func newReader(for caller: Caller) throws(ReaderError) -> Int32 {
        try readers.newReader(for: caller, form: .jsonLines)
    }

    /// Guesses come at most every `BlockRecognition.partialInterval`, from the decoding.
    public func heard(_ speech: HeardSpeech, of recording: RecordingID) {
        guard !readers.isEmpty else { return }
        switch speech {
        case .partial(let text): send(.partial(text))
        case .final(let utterance): send(.final(utterance))
        case .revised(let index, let utterance): send(.revised(index, utterance))
        case .accuratePass: break
        }
    }

    public func ended(_ recording: RecordingID) {
        send(.end(memo: memoPath(recording)))
    }

    private func send(_ line: LiveLine) {
        if let bytes = line.encoded { readers.send(bytes) }
    }
}

/// The live text has one form: JSON lines.
enum LiveTextForm { case jsonLines }

/// One line of the live text, as JSON.
enum LiveLine {
    case partial(String)
    case final(Transcript)
    case revised(Int, Transcript)
    case end(memo: String)

    private struct Partial: Encodable {
        let kind = "partial"
        let text: String
    }

    private struct Final: Encodable {
        struct Word: Encodable {
            let word: String
            let start: Double
            let end: Double
            let conf: Double
        }
        var kind = "final"
        /// Which final utterance with words a revised line writes again, from 0; nil on a final line.
        var utterance: Int?
        /// The model that wrote a revised line.
        var model: String?
        let text: String
        let start: Double
        let end: Double
        let words: [Word]

        init(_ utterance: Transcript, revising index: Int? = nil) {
            if let index {
                kind = "revised"
                self.utterance = index
                model = utterance.model
            }
            text = utterance.text
            start = utterance.words.first?.start ?? 0
            end = utterance.words.last?.end ?? 0
            words = utterance.words.map { Word(word: $0.word, start: $0.start, end: $0.end, conf: $0.confidence) }
        }
    }

    private struct End: Encodable {
        let kind = "end"
        let memo: String
    }

    /// The line's bytes with its newline; nil only if it cannot be encoded (a NaN timing), which is left out.
    var encoded: [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data: Data?
        switch self {
        case .partial(let text): data = try? encoder.encode(Partial(text: text))
        case .final(let utterance): data = try? encoder.encode(Final(utterance))
        case .revised(let index, let utterance): data = try? encoder.encode(Final(utterance, revising: index))
        case .end(let memo): data = try? encoder.encode(End(memo: memo))
        }
        return data.map { Array($0) + [UInt8(ascii: "\n")] }
    }
}
