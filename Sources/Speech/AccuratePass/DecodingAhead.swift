import Synchronization

/// The utterance under way decoded ahead at its pauses, piece by piece (each from the last pause to the next), so
/// that Send finds it written but for what was said after its last pause.
struct AheadChain {
    /// Where its audio starts, in seconds of the recording.
    let start: Double
    /// Where the audio handed to its pieces ends.
    var audioEnd: Double
    /// In spoken order; the last may still be taking the audio of pauses that come before it starts.
    var pieces: [AheadPiece] = []

    init(start: Double) {
        self.start = start
        audioEnd = start
    }
}

/// One piece: its audio, and its decoding once the decodings before it are done.
struct AheadPiece: Sendable {
    let audio: PieceAudio
    let decoding: Task<AheadText?, Never>
}

/// A piece's text timed in the recording, where its speech ends, and the text said up to its end, which the next piece
/// is prompted with.
struct AheadText: Sendable {
    let text: Transcript
    let speechEnd: Double
    let context: String
}

/// A piece's audio, which grows with each pause heard until its decoding takes it.
final class PieceAudio: Sendable {
    struct Taken {
        var samples: [UInt8]
        let start: Double
        var speechEnd: Double
    }

    private let state: Mutex<(taken: Taken, isTaken: Bool)>

    init(_ samples: [UInt8], start: Double, speechEnd: Double) {
        state = Mutex((Taken(samples: samples, start: start, speechEnd: speechEnd), false))
    }

    /// Adds the audio up to another pause; false once the decoding has taken it, or it was left.
    func add(_ samples: [UInt8], speechEnd: Double) -> Bool {
        state.withLock { state in
            guard !state.isTaken else { return false }
            state.taken.samples += samples
            state.taken.speechEnd = speechEnd
            return true
        }
    }

    /// The audio for its decoding: nothing is added after.
    func take() -> Taken {
        state.withLock { state in
            state.isTaken = true
            return state.taken
        }
    }

    /// Nothing will use its text: a decoding that has not started leaves it undecoded.
    func leave() {
        state.withLock { state in
            guard !state.isTaken else { return }
            state.isTaken = true
            state.taken.samples = []
        }
    }
}
