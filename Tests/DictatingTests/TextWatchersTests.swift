import Foundation
import Recording
import Speech
import Testing

@testable import Dictating

/// The live text's pipes: every reader gets every line, a reader that stops reading is cut off without slowing the
/// others, and readers are bounded.
@Suite("The live text's readers")
struct TextWatchersTests {
    private let recording = RecordingID("1796248096332715")

    private func makeWatchers(changes: ListenerChanges? = nil) -> TextWatchers {
        TextWatchers(memoPath: { "/org/notula/Notula1/Memos/\($0.rawValue)" }, changes: changes)
    }

    @Test func aReaderGetsTheLinesOfEachRecordingInOrder() throws {
        let watchers = makeWatchers()
        #expect(!watchers.isFollowed, "nobody asked yet")
        let reader = try watchers.newReader(for: .unsandboxed(":1.7"))
        #expect(watchers.isFollowed)
        watchers.heard(.partial("annyeong"), of: recording)
        let word = Word(start: 0.42, end: 0.9, word: "annyeong", confidence: 1)
        watchers.heard(.final(Transcript(text: "annyeong", words: [word])), of: recording)
        watchers.ended(recording)
        #expect(
            PipeEnd.available(on: reader) == """
                {"kind":"partial","text":"annyeong"}
                {"end":0.9,"kind":"final","start":0.42,"text":"annyeong","words":[{"conf":1,"end":0.9,"start":0.42,"word":"annyeong"}]}
                {"kind":"end","memo":"/org/notula/Notula1/Memos/1796248096332715"}

                """)
        close(reader)
    }

    @Test func aReaderThatStopsReadingIsCutOffAndTheOthersGetEverything() throws {
        let watchers = makeWatchers()
        let asleep = try watchers.newReader(for: .unsandboxed(":1.8"))
        let awake = try watchers.newReader(for: .unsandboxed(":1.9"))
        let utterance = Transcript(text: String(repeating: "말", count: 1000))
        var heardByAwake = 0
        // About 3 KiB a line: well past the pipe's 64 KiB and the 256 KiB kept for a slow reader.
        for _ in 0..<200 {
            watchers.heard(.final(utterance), of: recording)
            heardByAwake += PipeEnd.available(on: awake).split(separator: "\n").count
        }
        #expect(heardByAwake == 200)
        let keptForAsleep = PipeEnd.available(on: asleep).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(keptForAsleep.count < 200 && keptForAsleep.count > 10)
        var end = [UInt8](repeating: 0, count: 1)
        #expect(read(asleep, &end, 1) == 0, "cut off: its pipe is closed, not merely empty")
        watchers.ended(recording)
        #expect(PipeEnd.available(on: awake).hasPrefix(#"{"kind":"end""#))
        [asleep, awake].forEach { close($0) }
    }

    @Test func readersAreBoundedAndOneThatLeftMakesRoom() throws {
        let watchers = makeWatchers()
        var readers = try (0..<TextWatchers.mostReaders).map { try watchers.newReader(for: .unsandboxed(":1.\($0)")) }
        let refused = #expect(throws: ReaderError.self) { try watchers.newReader(for: .unsandboxed(":1.99")) }
        #expect(refused == .tooMany("16 readers follow the live text already; close one first"))
        close(readers.removeLast())
        let later = try watchers.newReader(for: .unsandboxed(":1.99"))
        (readers + [later]).forEach { close($0) }
    }

    /// Nothing is written meanwhile: the reader is seen going as it closes its end, not at the next line.
    @Test(.timeLimit(.minutes(1))) func aReaderThatClosesItsEndIsGoneAtOnce() async throws {
        let changes = ListenerChanges()
        var told = changes.changes.makeAsyncIterator()
        let watchers = makeWatchers(changes: changes)
        let reader = try watchers.newReader(for: .unsandboxed(":1.5", program: "watcher"))
        _ = await told.next()
        #expect(watchers.listeners.map(\.caller.program) == ["watcher"])
        #expect(watchers.listeners.first?.stream == .text)
        let kept = try watchers.newReader(for: .unsandboxed(":1.6", program: "stays"))
        _ = await told.next()
        close(reader)
        while watchers.listeners.count == 2 { _ = await told.next() }
        #expect(watchers.listeners.map(\.caller.program) == ["stays"])
        close(kept)
    }
}
