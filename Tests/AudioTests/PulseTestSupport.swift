import Foundation
import Testing

/// The PulseAudio server the tests record from: found the way every client finds it, with a sink named `mic`.
enum TestServer {
    static let micMonitor = "mic.monitor"

    /// Plays a file into the `mic` sink and returns once paplay has drained it and exited.
    ///
    /// The low latency makes the null sink render in real time, as a live microphone would,
    /// instead of consuming the file in large blocks ahead of time.
    static func playIntoMic(_ file: String) async throws {
        try await run("paplay", "--device=mic", "--latency-msec=20", file)
    }

    /// Kills the record stream of the client named `applicationName`, as the server does when
    /// its source goes away and there is nowhere to move the stream.
    static func killRecordStream(of applicationName: String) async throws {
        try await kill("source-output", "Source Output #", of: applicationName)
    }

    /// Kills the connection of the client named `applicationName`, as a dying server would end it.
    static func killClient(_ applicationName: String) async throws {
        try await kill("client", "Client #", of: applicationName)
    }

    /// pactl cannot kill; pacmd can, through the CLI module, loaded only for the moment.
    private static func kill(_ kind: String, _ heading: String, of applicationName: String) async throws {
        let listing = try await run("pactl", "list", kind + "s")
        let blocks = listing.components(separatedBy: heading).dropFirst()
        let ours = try #require(blocks.first { $0.contains("application.name = \"\(applicationName)\"") })
        let index = String(ours.prefix { $0.isNumber })
        let cliModule = try await run("pactl", "load-module", "module-cli-protocol-unix")
            .trimmingCharacters(in: .whitespacesAndNewlines)
        do {
            try await run("pacmd", "kill-\(kind)", index)
        } catch {
            try await run("pactl", "unload-module", cliModule)
            throw error
        }
        try await run("pactl", "unload-module", cliModule)
    }

    @discardableResult
    static func run(_ arguments: String...) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        // A file rather than a pipe: a pipe read only after exit would block a chatty process.
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("notula-run-\(UUID())").path
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                continuation.resume(throwing: error)
            }
        }
        let text = String(decoding: FileManager.default.contents(atPath: outputPath) ?? Data(), as: UTF8.self)
        try #require(status == 0, "\(arguments.joined(separator: " ")) exited with \(status)")
        return text
    }
}

/// Sound files made once per test run.
enum TestSounds {
    static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-audio-sounds-\(UUID())").path

    static func speech() async throws -> String {
        let path = folder + "/speech.wav"
        if !FileManager.default.fileExists(atPath: path) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try await TestServer.run("espeak-ng", "-w", path, "Remember to buy milk and call the dentist on Monday.")
        }
        return path
    }

    /// A steady 440 Hz sine at half scale (about −9 dBFS RMS).
    static func tone(seconds: Double) async throws -> String {
        let path = folder + "/tone-\(seconds).wav"
        if !FileManager.default.fileExists(atPath: path) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try await TestServer.run(
                "sox", "-n", "-r", "16000", "-c", "1", "-b", "16", path, "synth", "\(seconds)", "sine", "440", "vol", "0.5")
        }
        return path
    }
}

/// A fresh folder per test; the recordings folder inside it does not exist yet.
struct TemporaryFolder {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("notula-audio-\(UUID())").path
    var recordings: String { path + "/recordings" }

    func files() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: recordings)) ?? []
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// The parts of a WAV file the tests check, read back from disk.
struct WAVContents {
    let fileSize: Int
    let riffSize: UInt32
    let format: UInt16
    let channels: UInt16
    let sampleRate: UInt32
    let bitsPerSample: UInt16
    let dataSize: UInt32
    let samples: [Int16]

    init(path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        try #require(bytes.count >= 44)
        try #require(Array(bytes[0..<4]) == Array("RIFF".utf8) && Array(bytes[8..<12]) == Array("WAVE".utf8))
        try #require(Array(bytes[12..<16]) == Array("fmt ".utf8) && Array(bytes[36..<40]) == Array("data".utf8))
        func u32(_ at: Int) -> UInt32 { bytes[at..<at + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        fileSize = bytes.count
        riffSize = u32(4)
        format = u16(20)
        channels = u16(22)
        sampleRate = u32(24)
        bitsPerSample = u16(34)
        dataSize = u32(40)
        samples = stride(from: 44, to: bytes.count - 1, by: 2).map { Int16(bitPattern: u16($0)) }
    }

    var peak: Int { samples.map { abs(Int($0)) }.max() ?? 0 }
}

func permissions(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? Int) ?? -1
}

/// A Unix socket that lets clients connect (into its backlog) and never says a word: a hung server.
final class SilentSocket {
    let path: String
    private let descriptor: Int32

    init(path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        self.path = path
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: path.utf8.prefix(buffer.count - 1))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0 && listen(descriptor, 4) == 0, "cannot listen on \(path)")
    }

    deinit {
        close(descriptor)
        unlink(path)
    }
}
