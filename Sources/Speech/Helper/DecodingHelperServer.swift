import Downloading
import FoundationEssentials
import Glibc
import Recording
import Synchronization

/// A request to the helper and its answer, one JSON object a line each way.
struct DecodingRequest: Codable {
    /// The engine that decodes it, its library opened by the helper at its first request.
    enum Engine: String, Codable {
        case whisper, sherpa

        /// As a message names it.
        var name: String { self == .whisper ? "Whisper" : "sherpa-onnx" }

        /// What is said when the engine's library was not found, and how to install it.
        var missingLibrary: String {
            switch self {
            case .whisper: "libwhisper was not found: run `make`, or point NOTULA_WHISPER_LIBRARY at its libwhisper.so.1."
            case .sherpa: "sherpa-onnx was not found: run `make`, or point NOTULA_SHERPA_LIBRARY at its libsherpa-onnx-c-api.so."
            }
        }
    }

    let engine: Engine
    /// Whisper's ggml file, or the folder of a sherpa-onnx model's archive.
    let model: String
    /// A sherpa-onnx model's family (`SherpaRecognizer.Family`): `parakeet`, `moonshine`; empty for Whisper.
    var family = ""
    /// The WAV file to decode; empty when `audio` is given.
    let file: String
    /// An utterance's samples, 16-bit little-endian (base64 in the JSON line: 213 KB for 5 s).
    var audio: Data?
    /// Whisper's code of the language spoken.
    var language = ""
    /// Other languages it may be in (Whisper's codes, at most `WhisperEngine.mostOtherLanguages` weighed): a
    /// multilingual model writes it in the likeliest of them all.
    var otherLanguages: [String] = []
    /// The text said before, which steers Whisper's spelling.
    var prompt = ""
    /// Encode the audio at its own length first (Whisper's `FittedWindow`).
    var fitted = false

    /// The model's file or folder name, as a message names it.
    var modelName: String { String(model.split(separator: "/").last ?? Substring(model)) }
}

struct DecodingAnswer: Codable {
    /// Whisper's segments.
    var segments: [WhisperModel.Segment]?
    /// The language Whisper wrote them in, where the request gave several.
    var language: String?
    /// sherpa-onnx's text, and its words timed from the audio's first sample.
    var text: String?
    var words: [Word]?
    var error: String?
    var cancelled: Bool?
}

/// The helper's side: `notulad --decoding-helper WHISPER SHERPA` decodes what its parent sends, one request at a time,
/// with the model of the last request kept loaded, until its standard input ends. Each engine's library (an argument,
/// empty for none) is opened at its first request for it. A ggml assertion, or a model that crashes libwhisper or that
/// sherpa-onnx ends the process on, ends this process and not notulad. SIGUSR1 stops the decoding in flight where the
/// engine can be stopped (libwhisper between its steps, sherpa-onnx between utterances).
public enum DecodingHelperServer {
    public static let argument = "--decoding-helper"

    /// Set by SIGUSR1, cleared once the request in flight is answered: a signal that comes before the request is read
    /// still stops it.
    nonisolated(unsafe) private static var cancelled: sig_atomic_t = 0

    /// Whether the parent cancelled the request in flight.
    static func isCancelled() -> Bool { cancelled != 0 }

    /// When `arguments` ask for the helper, serves requests until standard input ends.
    /// - Returns: The exit status, or `nil` when the command line is not the helper's: the program then goes on.
    public static func serve(_ arguments: [String]) -> Int32? {
        guard arguments.count == 4, arguments[1] == argument else { return nil }
        ChildSpawn.limitAddressSpace(to: addressSpaceWithoutModel)
        signal(SIGUSR1) { _ in DecodingHelperServer.cancelled = 1 }
        var engines = HelperEngines(whisperLibrary: arguments[2], sherpaLibrary: arguments[3])
        while let line = readLine() {
            defer { cancelled = 0 }
            guard let request = try? JSONDecoder().decode(DecodingRequest.self, from: Data(line.utf8)) else {
                guard answer(DecodingAnswer(error: "The helper was sent a request it cannot read.")) else { return 1 }
                continue
            }
            let reply: DecodingAnswer
            switch Result(catching: { () throws(SpeechError) in try engines.decode(request) }) {
            case .success(let decoded): reply = decoded
            case .failure(.cancelled): reply = DecodingAnswer(error: SpeechError.cancelled.message, cancelled: true)
            case .failure(let error): reply = DecodingAnswer(error: error.message)
            }
            guard answer(reply) else { return 1 }
        }
        return 0
    }

    /// The runtimes, libwhisper and ggml or sherpa-onnx and onnxruntime, their threads' stacks and malloc's arenas,
    /// with room to spare: a decoding with tiny.en (74 MiB) peaked at 909 MiB of address space, 173 MB resident, on 2
    /// cores, and crashed under 768 MiB.
    static let addressSpaceWithoutModel = 2 << 30

    /// Room for the model in `paths` besides: its weights, and the buffers the engine sizes from them (Whisper small,
    /// 466 MiB on disk, is given about 1 GB of memory by its publisher), three times their size.
    static func addressSpace(holding paths: [String]) -> Int {
        let size = paths.reduce(0) { total, path in
            var status = stat()
            return total + (stat(path, &status) == 0 ? Int(status.st_size) : 0)
        }
        return addressSpaceWithoutModel + 3 * min(size, 64 << 30)
    }

    /// A test seam: the helper this many seconds slower per utterance, as on a slow machine or with a large model.
    static func testDelay(_ variable: String) -> Double? {
        ProcessInfo.processInfo.environment[variable].flatMap { Double($0) }.map { min(60, max(0, $0)) }
    }

    /// 16-bit little-endian samples as the engines take them: floats in −1…1.
    static func samples(in audio: Data) -> [Float] {
        var samples = LittleEndianSamples()
        return samples.floats(of: audio)
    }

    /// The file's samples as the engines take them: floats in −1…1.
    static func samples(of file: String) throws(SpeechError) -> [Float] {
        var reader = try WAVSamples(path: file)
        var block = [Int16](repeating: 0, count: 16_000)
        var samples: [Float] = []
        while true {
            let count = try block.withUnsafeMutableBufferPointer { buffer in
                Result { () throws(SpeechError) in try reader.read(into: buffer) }
            }.get()
            guard count > 0 else { return samples }
            samples += block[..<count].map { Float($0) / 32_768 }
        }
    }

    private static func answer(_ reply: DecodingAnswer) -> Bool {
        guard var bytes = try? JSONEncoder().encode(reply).map({ $0 }) else { return false }
        bytes.append(UInt8(ascii: "\n"))
        return DocumentFetcher.writeStandardOutput(bytes)
    }
}

/// What the helper holds: the libraries it opened, and one model, the last request's.
struct HelperEngines {
    private let whisperPath: String
    private let sherpaPath: String
    private var whisper: WhisperLibrary?
    private var sherpa: SherpaLibrary?
    private var loaded: Loaded?

    private enum Loaded {
        case whisper(WhisperModel)
        case sherpa(SherpaRecognizer, folder: String)
    }

    init(whisperLibrary: String, sherpaLibrary: String) {
        whisperPath = whisperLibrary
        sherpaPath = sherpaLibrary
    }

    mutating func decode(_ request: DecodingRequest) throws(SpeechError) -> DecodingAnswer {
        switch request.engine {
        case .whisper:
            if whisper == nil { whisper = try WhisperLibrary.load(searchingFrom: [whisperPath]) }
            guard let library = whisper else { throw .engineUnavailable("libwhisper was not opened.") }
            let model: WhisperModel
            if case .whisper(let current) = loaded, current.path == request.model {
                model = current
            } else {
                loaded = nil
                ChildSpawn.limitAddressSpace(to: DecodingHelperServer.addressSpace(holding: [request.model]))
                model = try WhisperModel(library: library, path: request.model)
            }
            loaded = .whisper(model)
            return try model.answer(request)
        case .sherpa:
            if sherpa == nil { sherpa = try SherpaLibrary.load(searchingFrom: [sherpaPath]) }
            guard let library = sherpa else { throw .engineUnavailable("sherpa-onnx was not opened.") }
            guard let family = SherpaRecognizer.Family(rawValue: request.family) else {
                throw .recognitionFailed("sherpa-onnx has no model family \(request.family).")
            }
            let recognizer: SherpaRecognizer
            if case .sherpa(let current, let folder) = loaded, folder == request.model {
                recognizer = current
            } else {
                loaded = nil
                let files = family.files.map { request.model + "/" + $0 }
                ChildSpawn.limitAddressSpace(to: DecodingHelperServer.addressSpace(holding: files))
                recognizer = try SherpaRecognizer(
                    library: library, family: family, folder: request.model, threads: SherpaRecognizer.threads)
            }
            loaded = .sherpa(recognizer, folder: request.model)
            // A memo's file is cut where Silero hears speech end, when it is installed beside the library; an utterance
            // is decoded whole, and needs no detector loaded.
            let detector =
                request.audio != nil ? nil
                : VoiceDetection.model(besides: sherpaPath).flatMap { try? VoiceDetector(library: library, model: $0) }
            let transcript = try recognizer.answer(request, cutting: detector)
            return DecodingAnswer(text: transcript.text, words: transcript.words)
        }
    }
}
