import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// Eight clients sending random recorder commands at once to the real notulad; afterwards the
/// invariants hold: State matches the capture, every memo has its audio and its row, no audio
/// file without a memo, and each memo's audio lasts as long as the Elapsed it was processed at.
@Suite("Eight clients at once", .serialized, .tags(.reliability))
struct ConcurrentClientsTests {
    static let clients = 8
    static let commands = 1000

    private static let commandMix: [(MemberName, Int)] = [
        ("Toggle", 25), ("Start", 10), ("Pause", 15), ("Resume", 15), ("Process", 6), ("Discard", 4), ("Get", 25),
    ]

    @Test func eightClientsOfAThousandRandomCommandsLeaveTheInvariantsStanding() async throws {
        let sound = try await PrivateSoundServer()
        let service = try await ServiceUnderTest.start(
            .named("mic.monitor"), environment: ["PULSE_SERVER": sound.address, "NOTULA_MODEL_CATALOG": "http://127.0.0.1:9/none.json"])
        // Everything the service signals, from before the first command to the end.
        var history = try await service.client.signals(matching: MatchRule(sender: NotulaBus.name)).makeAsyncIterator()
        let seed = ProcessInfo.processInfo.environment["NOTULA_FUZZ_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)

        let started = ContinuousClock.now
        var counted: [String: Int] = [:]
        try await withThrowingTaskGroup(of: [String: Int].self) { group in
            for client in 0..<Self.clients {
                let connection = try await service.daemon.connect()
                group.addTask {
                    var random = SeededGenerator(seed: seed &+ UInt64(client))
                    var outcomes: [String: Int] = [:]
                    for _ in 0..<Self.commands {
                        outcomes[await Self.send(Self.pick(&random), through: connection), default: 0] += 1
                    }
                    await connection.close()
                    return outcomes
                }
            }
            for try await outcomes in group { counted.merge(outcomes, uniquingKeysWith: +) }
        }
        let seconds = Double((ContinuousClock.now - started).components.seconds)
        print(
            "CONCURRENCY seed \(seed): \(Self.clients) clients × \(Self.commands) commands in ~\(Int(seconds)) s; outcomes \(counted.sorted { $0.key < $1.key })"
        )
        let unexpected = counted.keys.filter { $0 != "reply" && $0 != NotulaErrorName.invalidState.rawValue.rawValue }
        #expect(unexpected.isEmpty, "\(counted)")

        // At rest (a processing in flight ended): the capture as State says. Then a recording ends
        // as a memo, whose title, set last, marks the end of what the service signalled.
        var now = try await service.recorderSignals().makeAsyncIterator()
        var state = try await service.property(.state)
        if state == .string("processing") {
            let settled = await now.events { if case .state(let name, _) = $0 { name != "processing" } else { false } }
            if case .state(let name, _)? = settled.last { state = .string(name) }
        }
        try await expectCapture(matching: state, on: sound)
        if state == .string("idle") { try await service.recorder(.start) }
        // A second more, so that one memo's audio against its Elapsed is more than milliseconds.
        if try await service.property(.state) == .string("paused") { try await service.recorder(.resume) }
        try sound.play(try silence(seconds: 1)).waitUntilExit()
        _ = try await service.recorder(.process)
        _ = await now.events(until: .state("idle", reason: ""))
        try await expectCapture(matching: .string("idle"), on: sound)
        // The end of the history: a change signalled with its value after every memo's (a memo's Title is not: titles
        // may hold what was said, and are signalled as invalidated only).
        let marker = Double(seed % 500) + 0.25
        try await service.call(
            NotulaBus.recorderPath, "org.freedesktop.DBus.Properties", "Set",
            [
                .string(NotulaBus.recorderInterface.rawValue), .string(NotulaBus.Recorder.Property.silenceSeconds.rawValue),
                .variant(.double(marker)),
            ])
        var elapsedAtProcessing = ElapsedAtProcessing()
        while let message = await history.next() {
            if message.path == NotulaBus.recorderPath,
                (try? message.argument(1, as: [String: Variant].self))?["SilenceSeconds"] == Variant(marker)
            {
                break
            }
            elapsedAtProcessing.take(message)
        }

        let memos = try await memoPaths(of: service)
        print("CONCURRENCY: \(memos.count) memos made, \(elapsedAtProcessing.kept.count) processings kept")
        #expect(memos.count == elapsedAtProcessing.kept.count)
        // Ids are start times of equal length: sorted, they are in the order the memos were made.
        for (memo, elapsed) in zip(memos.sorted(), elapsedAtProcessing.kept) {
            guard case .string(let path) = try await service.property(.audioFile, of: memo) else {
                Issue.record("\(memo) has no AudioFile")
                continue
            }
            let wav = try WAVReader(path: path)
            #expect(wav.declaredDataBytes == wav.samples.count * 2, "\(memo): header and samples disagree")
            #expect(abs(wav.duration - elapsed) <= 0.1, "\(memo): WAV \(wav.duration) s, Elapsed \(elapsed) s")
        }
        try await checkConsistent(service)
    }

    private static func pick(_ random: inout SeededGenerator) -> MemberName {
        var roll = Int.random(in: 0..<commandMix.reduce(0) { $0 + $1.1 }, using: &random)
        for (member, weight) in commandMix {
            if roll < weight { return member }
            roll -= weight
        }
        return "Toggle"
    }

    /// "reply", or the error's name.
    private static func send(_ member: MemberName, through connection: Bus) async -> String {
        let isRead = member == "Get"
        let call = MethodCall(
            destination: NotulaBus.name, path: NotulaBus.recorderPath,
            interface: isRead ? "org.freedesktop.DBus.Properties" : NotulaBus.recorderInterface, member: member,
            arguments: isRead ? [.string(NotulaBus.recorderInterface.rawValue), .string(NotulaBus.Recorder.Property.state.rawValue)] : [])
        do {
            _ = try await connection.call(call, timeout: .seconds(20))
            return "reply"
        } catch {
            return error.name.rawValue
        }
    }

    /// Notula's record stream on the server as State says: uncorked while recording, corked while
    /// paused, none while idle. The capture carries out its steps just after the replies, so the
    /// server is asked again until it agrees (or 5 s pass).
    private func expectCapture(matching state: Value, on sound: PrivateSoundServer) async throws {
        let wanted: [String] =
            switch state {
            case .string("recording"): ["Corked: no"]
            case .string("paused"): ["Corked: yes"]
            default: []
            }
        var streams: [String] = []
        try await poll(within: .seconds(5)) {
            streams = try sound.pactl("list", "source-outputs").components(separatedBy: "Source Output #").dropFirst()
                .filter { $0.contains("application.name = \"Notula\"") }
                .map { $0.contains("Corked: yes") ? "Corked: yes" : "Corked: no" }
            return streams == wanted
        } otherwise: {
            CaptureDisagrees(state: state, streams: streams)
        }
    }

    private struct CaptureDisagrees: Error, CustomStringConvertible {
        let state: Value
        let streams: [String]
        var description: String { "State \(state), Notula's record streams: \(streams)" }
    }
}

/// The Elapsed of each processing that became a memo (Processed, or Failed for want of a model),
/// in order; a processing discarded made none.
struct ElapsedAtProcessing {
    private(set) var kept: [Double] = []
    private var pending: Double?
    private var ended = false

    mutating func take(_ message: Message) {
        guard message.path == NotulaBus.recorderPath else { return }
        if message.isSignal(.processed) || message.isSignal(.failed) {
            ended = pending != nil
            return
        }
        guard let changed = try? message.argument(1, as: [String: Variant].self), let state = try? changed["State"]?.get(String.self) else {
            return
        }
        if state == "processing" {
            pending = try? changed["Elapsed"]?.get(Double.self)
            ended = false
        } else if state == "idle" {
            if let pending, ended { kept.append(pending) }
            pending = nil
            ended = false
        }
    }
}
