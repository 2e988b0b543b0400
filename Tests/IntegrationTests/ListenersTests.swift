import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

/// One entry of `Listeners`: (stream, program, connection, since).
private struct Listening: Equatable {
    let stream: String
    let program: String
    let connection: String
    let since: Int64
}

extension ServiceUnderTest {
    fileprivate func listeners() async throws -> [Listening] {
        guard case .array(_, let entries) = try await property(.listeners) else { throw MissingOutput() }
        return try entries.map { entry in
            guard case .structure(let fields) = entry, fields.count == 4, case .string(let stream) = fields[0],
                case .string(let program) = fields[1], case .string(let connection) = fields[2], case .int64(let since) = fields[3]
            else { throw MissingOutput() }
            return Listening(stream: stream, program: program, connection: connection, since: since)
        }
    }

    /// `Listeners` once a PropertiesChanged names it; the recorder's other changes are passed over.
    fileprivate func nextListeners(in changes: inout AsyncStream<Message>.Iterator) async throws -> [Listening] {
        while let message = await changes.next() {
            guard message.member == "PropertiesChanged", let changed = try? message.argument(1, as: [String: Variant].self) else {
                continue
            }
            let invalidated = (try? message.argument(2, as: [String].self)) ?? []
            let name = NotulaBus.Recorder.Property.listeners.rawValue
            if changed[name] != nil || invalidated.contains(name) { return try await listeners() }
        }
        throw MissingOutput()
    }
}

/// The microseconds of the Unix epoch now, as `Listeners` counts `since`.
private func epochMicroseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1_000_000) }

/// This test runner's executable, as notulad names the test's own connection.
private func ownProgram() throws -> String {
    URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")).lastPathComponent
}

/// Whoever reads the live audio or text is seen: in `Listeners` the moment it attaches and the moment it closes its
/// pipe (with no recording writing to it), in the journal, and to the user while a recording runs: the tray's tooltip
/// and the live notification name the program.
@Suite("Who listens is seen", .serialized, .timeLimit(.minutes(2)))
struct ListenersTests {
    @Test func listenersNameEachReaderAsItAttachesAndAsItCloses() async throws {
        let service = try await ServiceUnderTest.start()
        var changes = try await service.recorderSignals().makeAsyncIterator()
        #expect(try await service.listeners() == [])

        let before = epochMicroseconds()
        let watch = try RunningCommand(
            binaryDirectory.appendingPathComponent("notula").path, ["watch"], environment: service.environment)
        let watching = try await service.nextListeners(in: &changes)
        let after = epochMicroseconds()
        #expect(watching.map { [$0.stream, $0.program] } == [["text", "notula"]])
        let since = try #require(watching.first?.since)
        #expect(since >= before && since <= after, "attached between \(before) and \(after), not at \(since)")
        #expect(watching.first?.connection.hasPrefix(":") == true)
        #expect(service.log.contains("notula (\(watching[0].connection), process "), "the journal names it: \(service.log)")

        let audio = try await openAudio(service)
        let both = try await service.nextListeners(in: &changes)
        #expect(
            both.map { [$0.stream, $0.program, $0.connection] } == [
                ["text", "notula", watching[0].connection], ["audio", try ownProgram(), await service.client.uniqueName],
            ])

        // Nothing is recorded, so nothing is written: the close alone tells.
        close(audio)
        #expect(try await service.nextListeners(in: &changes) == watching)
        #expect(watch.interrupt() == 0)
        #expect(try await service.nextListeners(in: &changes) == [])
        #expect(try await service.property(.state) == .string("idle"))
    }

    @Test func whileARecordingRunsTheTooltipAndTheNotificationNameWhoElseHearsIt() async throws {
        let bus = try PrivateBus()
        let server = try await NotificationDaemonMock(on: bus)
        let watcher = try await StatusNotifierWatcherMock(on: bus)
        let service = try await ServiceUnderTest.start(on: bus)
        _ = await watcher.nextRegistration()
        var changes = try await service.recorderSignals().makeAsyncIterator()
        var item = try await service.traySignals(of: Tray.itemPath, interface: Tray.itemInterface).makeAsyncIterator()

        let watch = try RunningCommand(
            binaryDirectory.appendingPathComponent("notula").path, ["watch"], environment: service.environment)
        #expect(try await service.nextListeners(in: &changes).map(\.program) == ["notula"])
        #expect(try await tooltip(service).body == "", "no recording: nothing to tell")

        try await service.recorder(.toggle)
        let posted = try #require(await server.nextNotification())
        #expect(posted.summary == "Recording")
        #expect(posted.body.hasSuffix("\nAlso heard by: notula"), "\(posted.body)")
        while let signal = await item.next(), signal.member != "NewToolTip" {}
        let shown = try await tooltip(service)
        #expect(shown.title == "Recording")
        #expect(shown.body.hasSuffix("\nAlso heard by: notula"), "\(shown.body)")

        #expect(watch.interrupt() == 0)
        #expect(try await service.nextListeners(in: &changes) == [])
        let replaced = try #require(await server.nextNotification())
        #expect(replaced.replacesID == 1, "the live notification, replaced in place")
        #expect(!replaced.body.contains("Also heard by"), "\(replaced.body)")
        while let signal = await item.next(), signal.member != "NewToolTip" {}
        #expect(try await tooltip(service).body.contains("Also heard by") == false)
        try await service.recorder(.discard)
        withExtendedLifetime(watcher) {}
    }

    /// `OpenAudio`'s pipe, the only copy of its read end: the reply that brought it is gone.
    private func openAudio(_ service: ServiceUnderTest) async throws -> Int32 {
        let reply = try await service.recorder(.openAudio, [.string("s16le")])
        guard case .unixFD(let received)? = reply.body.first else { throw MissingOutput() }
        return dup(received.rawValue)
    }

    /// The tray item's tooltip title and body.
    private func tooltip(_ service: ServiceUnderTest) async throws -> (title: String, body: String) {
        guard case .structure(let tip) = try await service.trayProperty("ToolTip"), tip.count == 4, case .string(let title) = tip[2],
            case .string(let body) = tip[3]
        else { throw MissingOutput() }
        return (title, body)
    }
}
