import Foundation
import Recording
import Testing

@testable import Dictating

/// Readers of one stream, each in its own form: each gets its form's bytes, listed first come first, their comings and
/// goings told.
@Suite("Readers on pipes")
struct PipeReadersTests {
    private enum Form: Hashable { case upper, lower }

    @Test func eachReaderGetsItsFormsBytesAndNoneWhereItsFormHasNone() throws {
        let readers = PipeReaders<Form>(of: .text, mostReaders: 4)
        let upper = try readers.newReader(for: .unsandboxed(":1.1"), form: .upper)
        let lower = try readers.newReader(for: .unsandboxed(":1.2"), form: .lower)
        defer { [upper, lower].forEach { close($0) } }
        #expect(readers.forms == [.upper, .lower])
        readers.send { $0 == .upper ? Array("HELLO".utf8) : Array("hello".utf8) }
        readers.send { $0 == .upper ? Array("!".utf8) : nil }
        #expect(PipeEnd.available(on: upper) == "HELLO!")
        #expect(PipeEnd.available(on: lower) == "hello")
    }

    @Test(.timeLimit(.minutes(1))) func listenersAreFirstComeFirstAndTheirChangesTold() async throws {
        let changes = ListenerChanges()
        var told = changes.changes.makeAsyncIterator()
        let readers = PipeReaders<Form>(of: .audio, mostReaders: 4, changes: changes)
        let first = try readers.newReader(for: .unsandboxed(":1.1", program: "first"), form: .upper)
        _ = await told.next()
        let second = try readers.newReader(for: .unsandboxed(":1.2", program: "second"), form: .upper)
        _ = await told.next()
        #expect(readers.listeners.map(\.caller.program) == ["first", "second"])
        #expect(readers.listeners.allSatisfy { $0.stream == .audio })
        #expect(readers.listeners[0].since <= readers.listeners[1].since)
        close(first)
        while readers.listeners.count == 2 { _ = await told.next() }
        #expect(readers.listeners.map(\.caller.program) == ["second"])
        close(second)
        while !readers.isEmpty { _ = await told.next() }
    }
}
