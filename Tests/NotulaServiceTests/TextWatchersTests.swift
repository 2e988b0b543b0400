import DBus
import Foundation
import Recording
import Speech
import Testing

@testable import NotulaService

/// The live text's pipes: every reader gets every line, a reader that stops reading is cut off without slowing the
/// others, and readers are bounded.
@Suite("The live text's readers")
struct TextWatchersTests {
    private let recording = RecordingID("1796248096332715")

    /// What a reader's end holds now, without waiting for more.
    private func available(on reader: FileDescriptor) -> String {
        _ = fcntl(reader.rawValue, F_SETFL, O_NONBLOCK)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(reader.rawValue, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aReaderGetsTheLinesOfEachRecordingInOrder() throws {
        let watchers = TextWatchers()
        #expect(!watchers.isFollowed, "nobody asked yet")
        let reader = try watchers.newReader(for: .unsandboxed(":1.7"))
        #expect(watchers.isFollowed)
        watchers.heard(.partial("annyeong"), of: recording)
        let word = Word(start: 0.42, end: 0.9, word: "annyeong", confidence: 1)
        watchers.heard(.final(Transcript(text: "annyeong", words: [word])), of: recording)
        watchers.ended(recording)
        #expect(
            available(on: reader) == """
                {"kind":"partial","text":"annyeong"}
                {"end":0.9,"kind":"final","start":0.42,"text":"annyeong","words":[{"conf":1,"end":0.9,"start":0.42,"word":"annyeong"}]}
                {"kind":"end","memo":"/org/notula/Notula1/Memos/1796248096332715"}

                """)
    }

    @Test func aReaderThatStopsReadingIsCutOffAndTheOthersGetEverything() throws {
        let watchers = TextWatchers()
        let asleep = try watchers.newReader(for: .unsandboxed(":1.8"))
        let awake = try watchers.newReader(for: .unsandboxed(":1.9"))
        let utterance = Transcript(text: String(repeating: "말", count: 1000))
        var heardByAwake = 0
        // About 3 KiB a line: well past the pipe's 64 KiB and the 256 KiB kept for a slow reader.
        for _ in 0..<200 {
            watchers.heard(.final(utterance), of: recording)
            heardByAwake += available(on: awake).split(separator: "\n").count
        }
        #expect(heardByAwake == 200)
        let keptForAsleep = available(on: asleep).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(keptForAsleep.count < 200 && keptForAsleep.count > 10)
        var end = [UInt8](repeating: 0, count: 1)
        #expect(read(asleep.rawValue, &end, 1) == 0, "cut off: its pipe is closed, not merely empty")
        watchers.ended(recording)
        #expect(available(on: awake).hasPrefix(#"{"kind":"end""#))
    }

    @Test func readersAreBoundedAndOneThatLeftMakesRoom() throws {
        let watchers = TextWatchers()
        var readers = try (0..<TextWatchers.mostReaders).map { try watchers.newReader(for: .unsandboxed(":1.\($0)")) }
        let refused = #expect(throws: BusError.self) { try watchers.newReader(for: .unsandboxed(":1.99")) }
        #expect(refused?.name == .limitsExceeded)
        readers.removeLast()
        #expect(throws: Never.self) { try watchers.newReader(for: .unsandboxed(":1.99")) }
    }

    /// Nothing is written meanwhile: the reader is seen going as it closes its end, not at the next line.
    @Test(.timeLimit(.minutes(1))) func aReaderThatClosesItsEndIsGoneAtOnce() async throws {
        let changes = ListenerChanges()
        var told = changes.changes.makeAsyncIterator()
        let watchers = TextWatchers(changes: changes)
        var reader: FileDescriptor? = try watchers.newReader(for: .unsandboxed(":1.5", program: "watcher"))
        _ = await told.next()
        #expect(reader != nil)
        #expect(watchers.listeners.map(\.caller.program) == ["watcher"])
        #expect(watchers.listeners.first?.stream == .text)
        let kept = try watchers.newReader(for: .unsandboxed(":1.6", program: "stays"))
        _ = await told.next()
        reader = nil
        while watchers.listeners.count == 2 { _ = await told.next() }
        #expect(watchers.listeners.map(\.caller.program) == ["stays"])
        _ = kept
    }
}

extension Caller {
    /// A caller outside any sandbox, as a test names it.
    static func unsandboxed(_ busName: String, program: String = "test") -> Caller {
        Caller(busName: busName, processID: 1, appID: nil, program: program)
    }
}
