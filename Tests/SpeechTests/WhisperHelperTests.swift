import Downloading
import Foundation
import NotulaTestSupport
import Recording
import Speech
import TestPasses
import Testing

/// The parent's side of the decoding helper, with a stand-in helper: no libwhisper needed.
@Suite(.tags(.speech)) struct WhisperHelperTests {
    @Test func aHelperThatExitsIsNoticedThoughAProcessItStartedHoldsItsOutput() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-helper-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // As a crash backtracer did: a process the helper starts keeps its standard output open after it dies.
        let script = folder.appendingPathComponent("helper")
        try "#!/bin/sh\nsleep 60 &\necho $! > \"$2/sleeper\"\nexit 3\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
        signal(SIGPIPE, SIG_IGN)
        let helper = DecodingHelper(executable: script.path, libraries: .init(whisper: folder.path), idleRelease: .seconds(30))

        await #expect {
            _ = try await helper.transcribe(audio: [0, 0], model: "ggml-tiny.en.bin", language: "en", prompt: "")
        } throws: { error in
            (error as? SpeechError)?.message.contains("exit status 3") == true
        }
        let written = try String(contentsOf: folder.appendingPathComponent("sleeper"), encoding: .utf8)
        let sleeper = try #require(Int32(written.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(sleeper, 0) == 0, "the decoding waited for the process holding the pipe to end")
        kill(sleeper, SIGKILL)
    }

    /// The helper gets ggml's and the locale's settings, not the session bus's address, and no descriptor of ours but
    /// its standard three.
    @Test func theHelperStartsWithoutTheSessionBusAndWithOnlyItsPipes() async throws {
        let folder = TemporaryFolder()
        #expect(getenv("DBUS_SESSION_BUS_ADDRESS") != nil, "run under scripts/private-session, which gives this process a bus")
        let leaked = open("/dev/null", O_RDONLY)
        defer { close(leaked) }
        let script = folder.file("helper")
        try "#!/bin/sh\ntr '\\0' '\\n' < /proc/$$/environ > \"$2/environ\"\nexec ls /proc/self/fd > \"$2/fds\"\n"
            .write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o700)
        signal(SIGPIPE, SIG_IGN)
        let helper = DecodingHelper(executable: script, libraries: .init(whisper: folder.path), idleRelease: .seconds(30))

        await #expect(throws: SpeechError.self) {
            _ = try await helper.transcribe(audio: [0, 0], model: "ggml-tiny.en.bin", language: "en", prompt: "")
        }
        let environment = try String(contentsOfFile: folder.file("environ"), encoding: .utf8).split(separator: "\n")
        #expect(environment.contains("GGML_NO_BACKTRACE=1"))
        #expect(!environment.contains { $0.hasPrefix("DBUS_SESSION_BUS_ADDRESS=") || $0.hasPrefix("XDG_RUNTIME_DIR=") })
        // ls's own listing of the folder is its 3.
        let descriptors = try String(contentsOfFile: folder.file("fds"), encoding: .utf8).split(separator: "\n")
        #expect(descriptors == ["0", "1", "2", "3"], "\(descriptors), ours: \(leaked)")
    }

    /// `notulad --decoding-helper` caps its address space before anything else, no library loaded yet.
    @Test func theHelperCapsItsAddressSpaceFirstThing() async throws {
        var input: [Int32] = [-1, -1]
        #expect(ChildPipe.make(&input))
        let notulad = binaryDirectory.appendingPathComponent("notulad").path
        let started = HelperSpawn.start(
            notulad, [DecodingHelperServer.argument, "/nonexistent/libwhisper.so.1", "/nonexistent/libsherpa-onnx-c-api.so"], input: input[0], output: STDERR_FILENO)
        close(input[0])
        let helper = try started.get()
        defer {
            close(input[1])
            var status: Int32 = 0
            _ = waitpid(helper, &status, 0)
        }

        func softLimit() -> Int? {
            let limits = (try? String(contentsOfFile: "/proc/\(helper)/limits", encoding: .utf8)) ?? ""
            let line = limits.split(separator: "\n").first { $0.hasPrefix("Max address space") }
            return line?.split(separator: " ").dropFirst(3).first.flatMap { Int($0) }
        }
        // 2 GiB: the runtimes and the engines' libraries, before any model.
        try await poll(within: .seconds(60), until: { softLimit() == 2 << 30 }) { LimitNotSet(seen: softLimit()) }
    }

    struct LimitNotSet: Error { let seen: Int? }
}
