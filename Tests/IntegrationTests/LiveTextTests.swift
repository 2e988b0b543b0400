import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// `WatchText`: the words while they are spoken, on a pipe of the client's own, never on the bus.
@Suite("Live text for the clients that ask", .serialized, .timeLimit(.minutes(3)), .tags(.modelLoading))
struct LiveTextTests {
    @Test func twoReadersGetGuessesThenEachUtteranceThenTheEndAndNoMessageOnTheBusCarriesTheText() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: [#""locale": "ko-KR""#])
        let monitorLog = FileManager.default.temporaryDirectory.appendingPathComponent("notula-monitor-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: monitorLog) }
        let monitor = try await BusMonitor.start(address: service.daemon.address, log: monitorLog)
        let first = try await LiveTextReader.watching(service)
        let second = try await LiveTextReader.watching(service)
        let signals = try await service.recorderSignals()

        let phrases = try twoSentences()

        try await service.recorder(.start)
        try await service.sink?.play(phrases.0)
        try await service.sink?.play(phrases.1)
        try await service.sink?.play(phrases.2)
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        for await message in signals where message.isSignal(.processed) { break }

        let lines = await first.linesUntilEnd()
        #expect(await second.linesUntilEnd() == lines, "both readers read the same")
        // What went over the bus while the text was spoken, up to its end; GetTranscript below carries it, as asked.
        let seen = try await monitor.stop(after: "Processed")
        #expect(lines.last == LiveTextLine(kind: "end", memo: memo.rawValue), "\(lines)")
        let finals = lines.filter { $0.kind == "final" }
        #expect(finals.count >= 2, "an utterance a phrase: \(lines)")
        // Before each final, a guess at its utterance.
        var guessed = false
        for line in lines {
            if line.kind == "partial" { guessed = true }
            if line.kind == "final" {
                #expect(guessed, "a final without a guess before it: \(lines)")
                guessed = false
            }
        }

        // The finals are the memo's text, word for word and with its timings, as the reference decodes its audio.
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        let spoken = finals.compactMap(\.text).filter { !$0.isEmpty }
        #expect(spoken.joined(separator: " ") == text && !text.isEmpty)
        guard case .string(let audio) = try await service.property(.audioFile, of: memo) else {
            Issue.record("no audio file")
            return
        }
        let model = try #require(ProcessInfo.processInfo.environment["NOTULA_TEST_MODEL"])
        let reference = try await ReferenceTranscriber.transcribe(wavFile: audio, model: model)
        let words = finals.flatMap { $0.words ?? [] }
        #expect(words.map(\.word) == reference.words.map(\.word))
        #expect(words.map(\.start) == reference.words.map(\.start) && words.map(\.end) == reference.words.map(\.end))
        for final in finals where !(final.words ?? []).isEmpty {
            #expect(final.start == final.words?.first?.start && final.end == final.words?.last?.end)
        }

        // Nothing said went over the bus: not in a signal, not in any reply.
        #expect(seen.contains("Processed"), "the monitor saw the bus")
        for word in reference.words.map(\.word) where word.count > 1 {
            #expect(!seen.contains(word), "\(word) went over the bus")
        }
        close(first.descriptor)
        close(second.descriptor)
    }

    /// `notula watch`: each utterance on a line of its own (not on a terminal: no guesses), `--json` every line as
    /// sent; Ctrl-C ends it with 0, notulad going away with 3.
    @Test func notulaWatchPrintsTheUtterancesAndEndsWithCtrlCOrWithTheService() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let service = try await ServiceUnderTest.start(environment: ["VOSK_MODEL_PATH": place.path], settings: [#""locale": "ko-KR""#])
        let notula = binaryDirectory.appendingPathComponent("notula").path
        let plain = try RunningCommand(notula, ["watch"], environment: service.environment)
        let json = try RunningCommand(notula, ["watch", "--json"], environment: service.environment)
        try await poll(within: .seconds(10), until: { service.log.components(separatedBy: "follows the live text").count == 3 }) {
            MissingOutput()
        }
        let phrases = try twoSentences()
        let signals = try await service.recorderSignals()
        try await service.recorder(.start)
        try await service.sink?.play(phrases.0)
        try await service.sink?.play(phrases.1)
        try await service.sink?.play(phrases.2)
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        for await message in signals where message.isSignal(.processed) { break }

        var lines: [LiveTextLine] = []
        repeat {
            lines.append(try JSONDecoder().decode(LiveTextLine.self, from: Data(try json.nextLine().utf8)))
        } while lines.last?.kind != "end"
        #expect(lines.last?.memo == memo.rawValue)
        let utterances = lines.filter { $0.kind == "final" }.compactMap(\.text).filter { !$0.isEmpty }
        #expect(utterances.count >= 2, "\(lines)")
        #expect(try utterances.map { _ in try plain.nextLine() } == utterances)
        #expect(utterances.joined(separator: " ") == (try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)))

        #expect(plain.interrupt() == 0, "Ctrl-C is how a watch ends")
        #expect(service.stop() == 0)
        #expect(json.exitStatus() == 3, "notulad went away")
    }

    /// `WatchText` and `OpenAudio` both answer on a pipe, which a caller over TCP could not receive: it is not let in.
    @Test(arguments: [("WatchText", []), ("OpenAudio", [Value.string("s16le")])])
    func aCallerOverTCPIsNotLetIn(method: String, arguments: [Value]) async throws {
        let daemon = try PrivateBus(overTCP: true)
        let service = try await ServiceUnderTest.start(on: daemon)
        let remote = try await Bus.connect(address: try #require(daemon.tcpAddress))
        let refused = await #expect(throws: BusError.self) {
            try await remote.call(
                MethodCall(
                    destination: NotulaBus.name, path: NotulaBus.recorderPath, interface: NotulaBus.recorderInterface,
                    member: MemberName(method)!, arguments: arguments))
        }
        // Over TCP the bus knows no process behind the caller, which cannot be told unsandboxed: it is refused first.
        #expect(refused?.name == .accessDenied, "\(String(describing: refused))")
        // The same caller's other calls are answered as ever.
        let state = try await remote.call(
            MethodCall(
                destination: NotulaBus.name, path: NotulaBus.recorderPath, interface: "org.freedesktop.DBus.Properties", member: "Get",
                arguments: [.string(NotulaBus.recorderInterface.rawValue), .string("State")]))
        #expect(try state.argument(0, as: Variant.self).value == .string("idle"))
        _ = service
        await remote.close()
    }
}

/// Two Korean sentences with 2.5 s of quiet between them, made before Start.
///
/// Vosk ends an utterance after 2 s of quiet only when its best guess ends in silence. On espeak-ng's English voice
/// reading romanised Korean it often does not (12 of 40 starting offsets gave one utterance, in CI too); on these
/// sentences in its Korean voice it did at all 100 offsets tried.
func twoSentences() throws -> (String, String, String) {
    try (speech("병원에 왔습니다", voice: "ko"), silence(seconds: 2.5), speech("환자는 괜찮습니다", voice: "ko"))
}

/// `dbus-monitor`, a peer nobody here wrote, printing every message on the bus to `log`.
private struct BusMonitor {
    let process: Process
    let log: URL

    /// Returns once it monitors: dbus-monitor prints the daemon's taking its name away first.
    static func start(address: String, log: URL) async throws -> BusMonitor {
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-monitor")
        process.arguments = ["--address", address, "--monitor"]
        process.standardOutput = try FileHandle(forWritingTo: log)
        try process.run()
        try await poll(within: .seconds(10), until: { (try? String(contentsOf: log, encoding: .utf8))?.contains("NameLost") == true }) {
            MonitorNotStarted()
        }
        return BusMonitor(process: process, log: log)
    }

    /// Everything it printed (it flushes each message) once it printed `last`: on a loaded machine it may print a
    /// message after its receiver had it. SIGKILL: it inherits the test runner's ignored SIGTERM.
    func stop(after last: String) async throws -> String {
        try? await poll(within: .seconds(10), until: { (try? String(contentsOf: log, encoding: .utf8))?.contains(last) == true }) {
            MonitorNotStarted()
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return try String(contentsOf: log, encoding: .utf8)
    }
}

private struct MonitorNotStarted: Error {}
