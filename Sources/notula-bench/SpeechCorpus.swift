import Foundation
import NotulaTestSupport

/// A WAV file of the bench's, 16 kHz mono 16-bit as Notula records, and how long it plays.
struct AudioFile {
    let path: String
    let seconds: Double

    /// The file at `path`, its length read by sox.
    init(_ path: String) throws {
        self.path = path
        seconds = Double(try output(of: "soxi", "-D", path).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
}

/// Speech that someone dictating might say, as a recording: Korean (or English) sentences spoken by espeak-ng, joined by short
/// pauses, always ending with the same closing sentence, so that every recording's last utterance is one file the
/// bench can decode on its own.
struct SpeechCorpus {
    /// What is said, in which of espeak-ng's voices.
    struct Script {
        let voice: String
        /// Spoken in turn, as many as a length needs.
        let sentences: [String]
        let closing: String

        static let korean = Script(voice: "ko", sentences: SpeechCorpus.sentences, closing: SpeechCorpus.closing)
        /// The sentences the tests' word error rates are measured on.
        static let english = Script(
            voice: "en-us", sentences: WordErrorRate.exactSentences + WordErrorRate.ownSentences,
            closing: "Thank you, that is all for today.")
    }

    private static let sentences = [
        "안녕하세요. 오늘은 날씨가 아주 좋습니다.",
        "저는 회의 내용을 음성으로 기록하고 있습니다.",
        "내일 아침 아홉 시에 다시 만나요.",
        "이번 주 금요일까지 보고서를 제출해 주세요.",
        "점심은 회사 근처 식당에서 먹겠습니다.",
        "새로운 프로젝트 일정을 함께 검토해 봅시다.",
        "서울역에서 기차를 타고 부산에 갑니다.",
    ]
    private static let closing = "감사합니다. 좋은 하루 보내세요."
    /// The pause between sentences. Long enough that Vosk's endpointing ends an utterance before the closing
    /// sentence: after 0.4 s pauses it joined the closing sentence to the two before it in the 300 s recording
    /// (a 10.5 s last utterance); after 0.7 s it is the closing sentence alone at every length.
    private static let pauseSeconds = 0.7

    private let folder: URL
    private let spoken: [AudioFile]
    private let pause: AudioFile
    /// The sentence every recording ends with.
    let lastUtterance: AudioFile

    /// The sentences of the recordings, with the closing one, in the order said.
    let script: Script

    /// Speaks every sentence of `script` into `folder`.
    init(in folder: URL, script: Script = .korean) throws {
        self.script = script
        self.folder = folder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func speak(_ text: String, as name: String) throws -> AudioFile {
            let raw = folder.appendingPathComponent("\(name)-espeak.wav").path
            let converted = folder.appendingPathComponent("\(name).wav").path
            try output(of: "espeak-ng", "-v", script.voice, "-w", raw, text)
            try output(of: "sox", raw, "-r", "16000", "-c", "1", "-b", "16", converted)
            return try AudioFile(converted)
        }
        spoken = try script.sentences.enumerated().map { try speak($1, as: "sentence-\($0)") }
        lastUtterance = try speak(script.closing, as: "closing")
        let pause = folder.appendingPathComponent("pause.wav").path
        try output(of: "sox", "-n", "-r", "16000", "-c", "1", "-b", "16", pause, "trim", "0", "\(Self.pauseSeconds)")
        self.pause = try AudioFile(pause)
    }

    /// At least `seconds` of speech (at most a sentence more): the sentences in turn, each followed by a pause, then
    /// the closing sentence, then `quiet` seconds of silence (the speaker's pause before Send).
    func speech(lasting seconds: Double, thenQuiet quiet: Double = 0) throws -> AudioFile {
        let pieces = sentences(lasting: seconds).flatMap { [spoken[$0], pause] }
        let path = folder.appendingPathComponent("speech-\(Int(seconds))s\(quiet > 0 ? "-then-\(quiet)s" : "").wav").path
        try output(of: ["sox"] + (pieces + [lastUtterance]).map(\.path) + [path] + (quiet > 0 ? ["pad", "0", "\(quiet)"] : []))
        return try AudioFile(path)
    }

    /// What `speech(lasting:)` says, in order.
    func text(lasting seconds: Double) -> String {
        (sentences(lasting: seconds).map { script.sentences[$0] } + [script.closing]).joined(separator: " ")
    }

    /// The sentences said in `seconds` of speech, by index, before the closing one.
    private func sentences(lasting seconds: Double) -> [Int] {
        var said: [Int] = []
        var length = lastUtterance.seconds
        while length < seconds {
            let sentence = said.count % spoken.count
            said.append(sentence)
            length += spoken[sentence].seconds + pause.seconds
        }
        return said
    }
}
