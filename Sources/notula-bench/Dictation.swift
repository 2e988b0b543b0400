import DBus
import Foundation
import NotulaContract
import NotulaTestSupport

/// A notulad driven as a dictation client drives it: the language picked, speech recorded, the memo sent and its
/// text read.
extension LaunchedService {
    /// What notulad logs when a recording sent had its text decoded while captured, rather than from its file.
    private static let streamedLine = "the text decoded while it was captured is complete"

    /// Starts `notulad` to transcribe Korean from what is played into `sink`: the model where Vosk's own tools would
    /// find it (a folder named as Vosk names models, in a place of `VOSK_MODEL_PATH`) and the locale from `LANG`.
    /// - Parameter settings: The content of its settings.json, when it should have one.
    static func startTranscribingKorean(
        _ notulad: String, home: URL, bus: Bus, modelPath: String, sink: NullSink, settings: String? = nil
    ) async throws -> LaunchedService {
        let place = home.appendingPathComponent("models")
        try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: place.appendingPathComponent("vosk-model-small-ko-0.22"), withDestinationURL: URL(fileURLWithPath: modelPath))
        return try await start(
            notulad, home: home, bus: bus, arguments: ["--source", sink.monitor],
            environment: ["VOSK_MODEL_PATH": place.path, "LANG": "ko_KR.UTF-8"], settings: settings)
    }

    /// Picks the language of the next recordings, which loads its model; returns once it is loaded.
    func pickLocaleAndWaitForModel(_ tag: String) async throws {
        let loads = log.components(separatedBy: "Loaded the \(tag) speech model").count - 1
        _ = try await bus.call(
            MethodCall(
                destination: NotulaBus.name, path: NotulaBus.recorderPath, interface: "org.freedesktop.DBus.Properties",
                member: "Set",
                arguments: [
                    .string(NotulaBus.recorderInterface.rawValue), .string(NotulaBus.Recorder.Property.locale.rawValue),
                    .variant(.string(tag)),
                ]))
        try await waitForLog("Loaded the \(tag) speech model", occurrence: loads + 1)
    }

    /// Records `speech` played into `sink`, then sends it (Process) and waits for its text (Processed).
    /// - Returns: The memo, the time from the Process call to the Processed signal (how long the text took), and
    ///   whether the text was decoded while captured.
    /// - Throws: `SendFailed` when the service signals Failed instead.
    func dictate(_ speech: AudioFile, through sink: NullSink) async throws -> SentMemo {
        let streamedBefore = log.components(separatedBy: Self.streamedLine).count
        let signals = try await bus.signals(
            matching: MatchRule(sender: NotulaBus.name, path: NotulaBus.recorderPath, interface: NotulaBus.recorderInterface))
        _ = try await bus.call(Self.recorderCall(.start))
        try await sink.play(speech.path)
        let clock = ContinuousClock()
        let sent = clock.now
        let memo = try await bus.call(Self.recorderCall(.process)).argument(0, as: ObjectPath.self)
        let processed = NotulaBus.Recorder.Signal.processed.rawValue.rawValue
        let failed = NotulaBus.Recorder.Signal.failed.rawValue.rawValue
        for await message in signals where message.member == processed || message.member == failed {
            guard message.member == processed else {
                throw SendFailed(error: try message.argument(0, as: String.self), message: try message.argument(1, as: String.self))
            }
            let latency = clock.now - sent
            return SentMemo(path: memo, latency: latency, streamed: log.components(separatedBy: Self.streamedLine).count > streamedBefore)
        }
        throw SendFailed(error: "disconnected", message: "the bus connection ended before the memo was processed")
    }

    /// The text of a processed memo.
    func text(of memo: ObjectPath) async throws -> String {
        try await bus.call(
            MethodCall(
                destination: NotulaBus.name, path: memo, interface: NotulaBus.memoInterface,
                member: NotulaBus.Memo.Method.getTranscript.rawValue)
        )
        .argument(0, as: String.self)
    }

    /// The recording of a memo: its file, and how long it lasts.
    func audio(of memo: ObjectPath) async throws -> (file: String, seconds: Double) {
        guard case .string(let file) = try await property(.audioFile, of: memo),
            case .double(let seconds) = try await property(.duration, of: memo)
        else { throw SendFailed(error: "no audio", message: "memo \(memo) has no AudioFile or Duration of the types documented") }
        return (file, seconds)
    }

    /// How long after Processed the memo's last utterances kept Whisper's text coming (its PendingUtterances): zero
    /// when Whisper had caught up by Send.
    func accurateTextWait(of memo: ObjectPath) async throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        let changes = try await bus.signals(
            matching: MatchRule(
                sender: NotulaBus.name, path: memo, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged"))
        guard case .array(_, let pending) = try await property(.pendingUtterances, of: memo), !pending.isEmpty else { return .zero }
        for await message in changes {
            let now = try? message.argument(1, as: [String: Variant].self)[NotulaBus.Memo.Property.pendingUtterances.rawValue]
            if case .array(_, let left)? = now?.value, left.isEmpty { return clock.now - start }
        }
        throw SendFailed(error: "disconnected", message: "the bus connection ended before Whisper's text of \(memo) came")
    }

    private func property(_ property: NotulaBus.Memo.Property, of memo: ObjectPath) async throws -> Value {
        let reply = try await bus.call(
            MethodCall(
                destination: NotulaBus.name, path: memo, interface: "org.freedesktop.DBus.Properties", member: "Get",
                arguments: [.string(NotulaBus.memoInterface.rawValue), .string(property.rawValue)]))
        return try reply.argument(0, as: Variant.self).value
    }

    /// A call of a recorder method.
    static func recorderCall(_ method: NotulaBus.Recorder.Method) -> MethodCall {
        MethodCall(
            destination: NotulaBus.name, path: NotulaBus.recorderPath, interface: NotulaBus.recorderInterface, member: method.rawValue)
    }
}

struct SentMemo {
    let path: ObjectPath
    /// From the Process call to the Processed signal.
    let latency: Duration
    /// Whether its text was decoded while it was captured; if not, it was decoded from its file at Send.
    let streamed: Bool
}

/// The service failed to give a memo its text, or gave a memo the bench cannot read.
struct SendFailed: Error, CustomStringConvertible {
    let error: String
    let message: String
    var description: String { "Send failed (\(error)): \(message)" }
}
