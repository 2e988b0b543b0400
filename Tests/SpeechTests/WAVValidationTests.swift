import Foundation
import NotulaTestSupport
import Speech
import TestPasses
import Testing

/// Files the engine must refuse, saying what is wrong, before any decoding starts.
@Suite(.tags(.speech)) struct WAVValidationTests {
    @Test(arguments: [
        (["-r", "22050", "-c", "1", "-b", "16"], "22050 Hz instead of 16000 Hz"),
        (["-r", "16000", "-c", "2", "-b", "16"], "2 channels instead of 1 (mono)"),
        (["-r", "16000", "-c", "1", "-b", "8"], "8 bits per sample instead of 16"),
        (["-r", "16000", "-c", "1", "-e", "floating-point", "-b", "32"], "instead of plain PCM"),
        (["-r", "44100", "-c", "2", "-b", "16"], "44100 Hz instead of 16000 Hz"),
    ])
    func aWAVOfAnotherFormatIsRefusedNamingWhatDiffers(options: [String], problem: String) async throws {
        let folder = TemporaryFolder()
        let path = folder.file("other.wav")
        try output(of: ["sox", "-n"] + options + [path, "synth", "0.5", "sine", "440"])

        #expect {
            try Engine.model().transcribe(wavFile: path)
        } throws: { error in
            guard case .unsupportedAudio(let message) = error as? SpeechError else { return false }
            return message.contains(problem) && message.contains(path) && message.contains("sox")
        }
    }

    @Test func stereoAtAnotherRateNamesBothProblems() async throws {
        let folder = TemporaryFolder()
        let path = folder.file("cd.wav")
        try output(of: "sox", "-n", "-r", "44100", "-c", "2", "-b", "16", path, "synth", "0.5", "sine", "440")

        let error = try #require(throws: SpeechError.self) { try Engine.model().transcribe(wavFile: path) }

        #expect(error.message.contains("2 channels") && error.message.contains("44100 Hz"))
    }

    @Test func aFileThatIsNotAWAVIsRefused() throws {
        let folder = TemporaryFolder()
        let path = folder.file("notes.wav")
        try "just some text, long enough to hold a header".write(toFile: path, atomically: true, encoding: .utf8)

        #expect(throws: SpeechError.unsupportedAudio("\(path) is not a WAV file (it does not start with a RIFF/WAVE header).")) {
            try Engine.model().transcribe(wavFile: path)
        }
    }

    @Test func aWAVWithoutADataChunkIsRefused() throws {
        let folder = TemporaryFolder()
        let path = folder.file("empty.wav")
        var bytes = Data("RIFF".utf8) + littleEndian(28) + Data("WAVE".utf8) + Data("fmt ".utf8) + littleEndian(16)
        bytes += Data([1, 0, 1, 0]) + littleEndian(16_000) + littleEndian(32_000) + Data([2, 0, 16, 0])
        try bytes.write(to: URL(fileURLWithPath: path))

        #expect(throws: SpeechError.unsupportedAudio("\(path) has no data chunk.")) {
            try Engine.model().transcribe(wavFile: path)
        }
    }

    @Test func aMissingFileIsUnreadable() throws {
        let path = "/nonexistent/notula/memo.wav"

        #expect(throws: SpeechError.audioUnreadable("Cannot read \(path): No such file or directory.")) {
            try Engine.model().transcribe(wavFile: path)
        }
    }
}
