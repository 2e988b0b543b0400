import Delivering
import Foundation
import Recording
import Synchronization
import Writing

@testable import Dictating

extension Caller {
    /// A caller outside any sandbox, as a test names it.
    static func unsandboxed(_ busName: String, program: String = "test") -> Caller {
        Caller(busName: busName, processID: 1, appID: nil, program: program)
    }
}

/// The read end of a pipe as a reader sees it.
enum PipeEnd {
    /// What `reader` holds now, without waiting for more.
    static func available(on reader: Int32) -> String {
        String(decoding: bytes(on: reader), as: UTF8.self)
    }

    static func bytes(on reader: Int32) -> [UInt8] {
        _ = fcntl(reader, F_SETFL, O_NONBLOCK)
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }
}

/// Where text goes in a test: every delivery asked for, in order, each answered as told.
final class RecordedDelivery: TextDelivering {
    struct Asked: Equatable {
        let text: String
        let output: TextOutput
    }

    private let state: Mutex<(asked: [Asked], answer: Result<Dictation.Delivery, DeliveryError>)>

    init(answer: Result<Dictation.Delivery, DeliveryError> = .success(Dictation.Delivery(method: .portal, newLines: .kept))) {
        state = Mutex(([], answer))
    }

    var asked: [Asked] { state.withLock { $0.asked } }

    /// Deliveries asked for from now on get `answer`.
    func answer(_ answer: Result<Dictation.Delivery, DeliveryError>) { state.withLock { $0.answer = answer } }

    func deliver(_ text: String, to output: TextOutput, typing: TypingChoice) async throws(DeliveryError) -> Dictation.Delivery? {
        guard output != .memo, !text.isEmpty else { return nil }
        let answer = state.withLock { state in
            state.asked.append(Asked(text: text, output: output))
            return state.answer
        }
        return try answer.get()
    }
}

/// The dictation's events as they are told.
final class HeardEvents: DictationListener {
    private let events = Mutex<[DictationEvent]>([])

    var all: [DictationEvent] { events.withLock { $0 } }

    func dictationChanged(_ event: DictationEvent) async { events.withLock { $0.append(event) } }
}

/// The settings a feature reported changed, in order.
final class KeptSettings: DictationSettingsListener {
    private let settings = Mutex<[DictationSetting]>([])
    var all: [DictationSetting] { settings.withLock { $0 } }
    func settingChanged(_ setting: DictationSetting) { settings.withLock { $0.append(setting) } }
}

/// The recordings `SilenceEnding` found quiet long enough, in order.
final class HeardQuiet: SilenceListener {
    private let recordings = Mutex<[RecordingID]>([])
    var all: [RecordingID] { recordings.withLock { $0 } }
    func quietLongEnough(_ recording: RecordingID) { recordings.withLock { $0.append(recording) } }
}

/// Captured audio as the capture hands it: 16 kHz mono, signed 16-bit little-endian.
enum Samples {
    static let rate = 16_000

    /// A 440 Hz tone, loud enough to be speech.
    static func speech(seconds: Double) -> [Int16] {
        (0..<Int(seconds * Double(rate))).map { Int16(8000 * sin(2 * Double.pi * 440 * Double($0) / Double(rate))) }
    }

    static func quiet(seconds: Double) -> [Int16] { [Int16](repeating: 0, count: Int(seconds * Double(rate))) }

    static func bytes(_ samples: [Int16]) -> [UInt8] {
        samples.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
    }
}

extension CapturedAudioListener {
    /// Hands `samples` to the listener as the capture does, in 20 ms reads.
    func hear(_ samples: [Int16], of recording: RecordingID) {
        let bytes = Samples.bytes(samples)
        for start in stride(from: 0, to: bytes.count, by: 640) {
            bytes[start..<min(start + 640, bytes.count)].withUnsafeBytes { captured($0, of: recording) }
        }
    }
}

extension TextWriting {
    /// The spoken punctuation alone: no replacements, no vocabulary.
    static let withoutFiles = TextWriting(
        replacements: ReplacementsFile(path: "/nonexistent/replacements.tsv"),
        vocabulary: VocabularyFile(path: "/nonexistent/vocabulary.txt"))
}
