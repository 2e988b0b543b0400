import Foundation
import Speech
import Testing

/// The parent's side of the Whisper helper, with a stand-in helper: no libwhisper needed.
@Suite struct WhisperHelperTests {
    @Test func aHelperThatExitsIsNoticedThoughAProcessItStartedHoldsItsOutput() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-helper-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // As a crash backtracer did: a process the helper starts keeps its standard output open after it dies.
        let script = folder.appendingPathComponent("helper")
        try "#!/bin/sh\nsleep 60 &\necho $! > \"$2/sleeper\"\nexit 3\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
        signal(SIGPIPE, SIG_IGN)
        let helper = WhisperHelper(executable: script.path, library: folder.path, idleRelease: .seconds(30))

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
}
