import Foundation
import Recording
import Testing

@testable import Dictating

/// The captured audio on each reader's pipe, in the form it chose; readers bounded.
@Suite("The live audio's readers")
struct AudioReadersTests {
    private let recording = RecordingID("1796248096332715")

    @Test func eachReaderGetsTheSamplesInItsForm() throws {
        let readers = AudioReaders()
        let raw = try readers.newReader(for: .unsandboxed(":1.7"), form: .s16le)
        let floats = try readers.newReader(for: .unsandboxed(":1.8"), form: .f32le)
        defer { [raw, floats].forEach { close($0) } }
        let samples: [Int16] = [0, 16_384, -32_768, 32_767]
        readers.hear(samples, of: recording)
        #expect(PipeEnd.bytes(on: raw) == Samples.bytes(samples))
        let read = PipeEnd.bytes(on: floats)
        let values = stride(from: 0, to: read.count, by: 4).map { offset in
            Float(bitPattern: read[offset..<offset + 4].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        }
        #expect(values == [0, 0.5, -1, Float(32_767) / 32_768])
    }

    @Test func vadSendsTheStretchOfSpeechWithItsStartAndAnEmptyOneForADiscard() throws {
        let readers = AudioReaders(threshold: -40, silenceSeconds: 0.5)
        let reader = try readers.newReader(for: .unsandboxed(":1.7"), form: .vad)
        defer { close(reader) }
        let speech = Samples.speech(seconds: 0.4)
        readers.hear(Samples.quiet(seconds: 1) + speech + Samples.quiet(seconds: 1), of: recording)
        let stretch = PipeEnd.bytes(on: reader)
        let count = stretch[0..<4].reversed().reduce(0) { $0 << 8 | Int($1) }
        let start = stretch[4..<12].reversed().reduce(0) { $0 << 8 | Int($1) }
        // The speech and 0.2 s of quiet kept on either side of it, at most the quiet that ended it after it.
        #expect(start == Samples.rate - VoiceStretches.margin)
        #expect(count >= speech.count + 2 * VoiceStretches.margin && count <= speech.count + Samples.rate)
        #expect(stretch.count == 12 + 2 * count)
        readers.captureDropped(recording)
        #expect(PipeEnd.bytes(on: reader).prefix(4) == [0, 0, 0, 0], "a discard: no samples")
    }

    @Test func readersAreBounded() throws {
        let readers = AudioReaders()
        let open = try (0..<AudioReaders.mostReaders).map { try readers.newReader(for: .unsandboxed(":1.\($0)"), form: .s16le) }
        defer { open.forEach { close($0) } }
        #expect(readers.listeners.count == AudioReaders.mostReaders)
        #expect(readers.listeners.allSatisfy { $0.stream == .audio })
        #expect(throws: ReaderError.tooMany("8 readers follow the live audio already; close one first")) {
            try readers.newReader(for: .unsandboxed(":1.99"), form: .vad)
        }
    }
}
