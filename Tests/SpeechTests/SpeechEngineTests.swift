import Foundation
import NotulaTestSupport
import Speech
import Synchronization
import TestPasses
import Testing

/// Against the real libvosk and the real Korean model, compared with Vosk's own Python package.
///
/// Serialized, as is every test that decodes audio: see `Dither`.
@Suite(.serialized, .tags(.speech)) struct SpeechEngineTests {
    @Test(arguments: [
        ("en", "Please remember to buy milk and call the office tomorrow morning."),
        ("en", "The meeting moved to Thursday at three, bring the quarterly report."),
        ("ko", "안녕하세요. 오늘 회의는 세 시에 시작합니다."),
    ])
    func transcribesSpeechExactlyAsTheReferencePackage(voice: String, sentence: String) async throws {
        let folder = TemporaryFolder()
        let wav = try await TestAudio.speech(sentence, voice: voice, in: folder)

        let ours = try transcribe(wav)
        let reference = try await ReferenceTranscriber.transcribe(wavFile: wav, model: Engine.modelPath)

        #expect(!ours.text.isEmpty)
        #expect(!ours.words.isEmpty)
        #expect(ours.text == reference.text)
        // Exact: both sides parse libvosk's 6-decimal text to the nearest Double, and Python prints it round-trip.
        #expect(ours.words == reference.words)
        #expect(ours.text == ours.words.map(\.word).joined(separator: " "))
    }

    @Test func silenceGivesAnEmptyTranscript() async throws {
        let folder = TemporaryFolder()
        let wav = try await TestAudio.silence(seconds: 2, in: folder)

        #expect(try transcribe(wav) == Transcript(text: "", words: []))
    }

    @Test func aDecodingToldToStopStopsBeforeItsNextBlock() async throws {
        let folder = TemporaryFolder()
        let wav = try await TestAudio.silence(seconds: 2, in: folder)
        var asked = 0
        #expect(throws: SpeechError.cancelled) {
            try Engine.model().transcribe(wavFile: wav) {
                asked += 1
                return asked == 3
            }
        }
        #expect(asked == 3, "2 s are 8 blocks; the third question ends the decoding")
    }

    @Test func samplesFedByHandGiveAnEmptyTranscriptForSilence() throws {
        let recognizer = try Recognizer(model: Engine.model())

        try recognizer.accept([Int16](repeating: 0, count: 16_000))
        try recognizer.accept([])

        #expect(recognizer.finish() == Transcript())
    }

    @Test func samplesFedByHandGiveWhatTheFileGives() async throws {
        let folder = TemporaryFolder()
        let wav = try await TestAudio.speech("Good morning, everyone. See you at noon.", in: folder)
        let samples = try wavSamples(wav)

        Dither.seed()
        let recognizer = try Recognizer(model: Engine.model())
        let block = BlockRecognition.blockSamples
        for start in stride(from: 0, to: samples.count, by: block) {
            try recognizer.accept(Array(samples[start..<min(start + block, samples.count)]))
        }
        let byHand = recognizer.finish()

        #expect(!byHand.text.isEmpty)
        #expect(byHand == (try transcribe(wav)))
    }

    /// Followed live, as a capture feeds it 20 ms at a time: guesses at most ten a second, each utterance after a
    /// guess at it, and the long silences Vosk ends as empty utterances not told.
    @Test func aFollowedRecognitionTellsGuessesTenASecondAndOnlyUtterancesWithWords() async throws {
        let folder = TemporaryFolder()
        let quiet = try wavSamples(try await TestAudio.silence(seconds: 6, in: folder))
        let first = try wavSamples(try await TestAudio.speech("병원에 왔습니다", voice: "ko", in: folder))
        let second = try wavSamples(try await TestAudio.speech("환자는 괜찮습니다", voice: "ko", in: folder))
        let samples = quiet + first + quiet + second + quiet

        let recognition = try BlockRecognition(model: Engine.model())
        let told = Mutex<[(ContinuousClock.Instant, HeardSpeech)]>([])
        recognition.follow(LiveHearing(wantsPartials: { true }, heard: { speech in told.withLock { $0.append((.now, speech)) } }))
        try samples.withUnsafeBufferPointer { all in
            for start in stride(from: 0, to: all.count, by: 320) {
                try recognition.append(UnsafeBufferPointer(rebasing: all[start..<min(start + 320, all.count)]))
            }
        }
        let whole = try recognition.finish()
        let heard = told.withLock { $0 }

        var finals: [String] = []
        var guessedAt: ContinuousClock.Instant?
        var guessed = false
        for (at, speech) in heard {
            switch speech {
            case .partial(let text):
                #expect(!text.isEmpty)
                if let guessedAt { #expect(at - guessedAt >= BlockRecognition.partialInterval, "\(heard)") }
                guessedAt = at
                guessed = true
            case .final(let utterance):
                #expect(guessed, "an utterance told without a guess at it: \(heard)")
                finals.append(utterance.text)
                guessed = false
            case .accuratePass, .revised:
                Issue.record("no Whisper model was chosen, yet it was told of one: \(heard)")
            }
        }
        #expect(finals.filter { !$0.isEmpty }.count == 2, "\(finals)")
        #expect(finals.filter { !$0.isEmpty }.joined(separator: " ") == whole.text)
    }

    @Test func aRecognizerStartsOverAfterFinishing() async throws {
        let folder = TemporaryFolder()
        let wav = try await TestAudio.speech("Good morning, everyone.", in: folder)
        let recognizer = try Recognizer(model: Engine.model())

        try recognizer.accept(try wavSamples(wav))
        let first = recognizer.finish()
        try recognizer.accept([Int16](repeating: 0, count: 8_000))
        let second = recognizer.finish()

        #expect(!first.text.isEmpty)
        #expect(second == Transcript())
    }

    @Test func skipsChunksOtherThanFormatAndData() async throws {
        let folder = TemporaryFolder()
        let plain = try await TestAudio.speech("Call me back later.", in: folder)
        let withList = folder.file("list.wav")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: plain))
        let list = Data("LIST".utf8) + littleEndian(UInt32(5)) + Data("INFOx".utf8) + Data([0])  // odd size: padded
        bytes.insert(contentsOf: list, at: 36)
        bytes.replaceSubrange(4..<8, with: littleEndian(UInt32(bytes.count - 8)))
        try bytes.write(to: URL(fileURLWithPath: withList))

        #expect(try transcribe(withList) == transcribe(plain))
    }

    @Test func aRecordingCutShortIsReadToItsEnd() async throws {
        let folder = TemporaryFolder()
        let plain = try await TestAudio.speech("Call me back later.", in: folder)
        let cut = folder.file("cut.wav")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: plain))
        // A header claiming more samples than were written, as after a crash between checkpoints.
        bytes.replaceSubrange(40..<44, with: littleEndian(UInt32.max))
        try bytes.write(to: URL(fileURLWithPath: cut))

        #expect(try transcribe(cut) == transcribe(plain))
    }

    @Test func aFolderThatIsNotAModelIsUnavailable() throws {
        let folder = TemporaryFolder()
        try "not a model".write(toFile: folder.file("README"), atomically: true, encoding: .utf8)

        #expect {
            try SpeechModel(library: Engine.library(), path: folder.path)
        } throws: { error in
            guard case .modelUnavailable(let message) = error as? SpeechError else { return false }
            return message.contains(folder.path)
        }
    }

    /// The file's transcript, with the dither seeded as the reference seeds it.
    private func transcribe(_ path: String) throws -> Transcript {
        let model = try Engine.model()
        Dither.seed()
        return try model.transcribe(wavFile: path)
    }

    /// The samples of a canonical 44-byte-header WAV, as sox writes them.
    private func wavSamples(_ path: String) throws -> [Int16] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path)).dropFirst(44)
        return stride(from: data.startIndex, to: data.endIndex - 1, by: 2).map {
            Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8)
        }
    }
}
