import Downloading
import FoundationEssentials
import Glibc
import Recording
import Synchronization

/// A request to the helper and its answer, one JSON object a line each way.
struct WhisperRequest: Codable {
    let model: String
    /// The WAV file to decode; empty when `audio` is given.
    let file: String
    /// An utterance's samples, 16-bit little-endian (base64 in the JSON line: 213 KB for 5 s).
    var audio: Data?
    let language: String
    let prompt: String
    /// Encode the audio at its own length first (`FittedWindow`).
    var fitted = false
}

struct WhisperAnswer: Codable {
    var segments: [WhisperModel.Segment]?
    var error: String?
    var cancelled: Bool?
}

/// The helper's side: `notulad --whisper-helper LIBRARY` decodes the files its parent names, one at a time, with the
/// model of the last request kept loaded, until its standard input ends. A ggml assertion, or a model file that
/// crashes libwhisper, ends this process and not notulad. SIGUSR1 stops the decoding in flight.
public enum WhisperHelperServer {
    public static let argument = "--whisper-helper"

    /// Set by SIGUSR1, cleared once the request in flight is answered: a signal that comes before the request is read
    /// still stops it.
    nonisolated(unsafe) private static var cancelled: sig_atomic_t = 0

    /// When `arguments` ask for the helper, serves requests until standard input ends; libwhisper is loaded at the
    /// first, and a library that does not load answers it with the reason and ends the helper.
    /// - Returns: The exit status, or `nil` when the command line is not the helper's: the program then goes on.
    public static func serve(_ arguments: [String]) -> Int32? {
        guard arguments.count == 3, arguments[1] == argument else { return nil }
        ChildSpawn.limitAddressSpace(to: addressSpaceWithoutModel)
        signal(SIGUSR1) { _ in WhisperHelperServer.cancelled = 1 }
        var opened: WhisperLibrary?
        var loaded: WhisperModel?
        // A test seam: a helper this many seconds slower per utterance, as on a slow machine or with a large model.
        let delay = ProcessInfo.processInfo.environment["NOTULA_WHISPER_TEST_DELAY"].flatMap { Double($0) }.map { min(60, max(0, $0)) }
        while let line = readLine() {
            defer { cancelled = 0 }
            guard let request = try? JSONDecoder().decode(WhisperRequest.self, from: Data(line.utf8)) else {
                guard answer(WhisperAnswer(error: "The helper was sent a request it cannot read.")) else { return 1 }
                continue
            }
            let library: WhisperLibrary
            do throws(SpeechError) {
                if let current = opened { library = current } else { library = try WhisperLibrary.load(searchingFrom: [arguments[2]]) }
                opened = library
            } catch {
                _ = answer(WhisperAnswer(error: error.message))
                return 1
            }
            let outcome = Result { () throws(SpeechError) in
                if loaded?.path != request.model { loaded = nil }
                let model: WhisperModel
                if let current = loaded {
                    model = current
                } else {
                    ChildSpawn.limitAddressSpace(to: addressSpace(holding: request.model))
                    model = try WhisperModel(library: library, path: request.model)
                }
                loaded = model
                let audio: [Float]
                if let bytes = request.audio { audio = samples(in: bytes) } else { audio = try samples(of: request.file) }
                if let delay, request.audio != nil { usleep(UInt32(delay * 1_000_000)) }
                return try model.transcribe(
                    audio, language: request.language, prompt: request.prompt, fitted: request.fitted,
                    isCancelled: { cancelled != 0 })
            }
            let reply: WhisperAnswer
            switch outcome {
            case .success(let segments): reply = WhisperAnswer(segments: segments)
            case .failure(.cancelled): reply = WhisperAnswer(error: SpeechError.cancelled.message, cancelled: true)
            case .failure(let error): reply = WhisperAnswer(error: error.message)
            }
            guard answer(reply) else { return 1 }
        }
        return 0
    }

    /// The runtime, libwhisper and ggml, its threads' stacks and malloc's arenas, with room to spare: a decoding with
    /// tiny.en (74 MiB) peaked at 909 MiB of address space, 173 MB resident, on 2 cores, and crashed under 768 MiB.
    static let addressSpaceWithoutModel = 2 << 30

    /// Room for the model at `path` besides: its weights, and the buffers ggml sizes from them (small, 466 MiB on disk,
    /// is given about 1 GB of memory by its publisher), three times its size.
    static func addressSpace(holding path: String) -> Int {
        var status = stat()
        let size = stat(path, &status) == 0 ? Int(status.st_size) : 0
        return addressSpaceWithoutModel + 3 * min(size, 64 << 30)
    }

    /// 16-bit little-endian samples as libwhisper takes them: floats in −1…1.
    private static func samples(in audio: Data) -> [Float] {
        stride(from: 0, to: audio.count - 1, by: 2).map { offset in
            Float(Int16(bitPattern: UInt16(audio[audio.startIndex + offset]) | UInt16(audio[audio.startIndex + offset + 1]) << 8)) / 32_768
        }
    }

    /// The file's samples as libwhisper takes them: floats in −1…1.
    private static func samples(of file: String) throws(SpeechError) -> [Float] {
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

    private static func answer(_ reply: WhisperAnswer) -> Bool {
        guard var bytes = try? JSONEncoder().encode(reply).map({ $0 }) else { return false }
        bytes.append(UInt8(ascii: "\n"))
        return DocumentFetcher.writeStandardOutput(bytes)
    }
}
