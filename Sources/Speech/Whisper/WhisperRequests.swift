import FoundationEssentials
import Glibc
import Recording

/// Whisper's decodings as requests to the decoding helper (`DecodingHelper`), and their answers in it.
extension DecodingHelper {
    /// Decodes the WAV `file` with the ggml model `model`, in the helper.
    /// - Throws: `.cancelled` when the task is cancelled (the decoding stops within libwhisper's next step);
    ///   `.recognitionFailed` saying why when the helper fails or dies; `.engineUnavailable`, `.modelUnavailable` as it says.
    public func transcribe(file: String, model: String, language: String, prompt: String = "") async throws(SpeechError)
        -> [WhisperModel.Segment]
    {
        try await answer(DecodingRequest(engine: .whisper, model: model, file: file, language: language, prompt: prompt)).segments ?? []
    }

    /// Decodes an utterance's samples (16 kHz mono, 16-bit little-endian) with the ggml model `model`, in the helper;
    /// the segments' times count from its first sample; with `fitted`, encoded at its own length first
    /// (`FittedWindow`); with `otherLanguages`, in the likeliest of them and `language`, which it returns (nil for
    /// `language` alone). Throws as `transcribe(file:model:language:prompt:)`.
    public func transcribe(
        audio: [UInt8], model: String, language: String, otherLanguages: [String] = [], prompt: String, fitted: Bool = false
    ) async throws(SpeechError) -> (segments: [WhisperModel.Segment], language: String?) {
        let request = DecodingRequest(
            engine: .whisper, model: model, file: "", audio: Data(audio), language: language, otherLanguages: otherLanguages,
            prompt: prompt, fitted: fitted)
        let answer = try await answer(request)
        return (answer.segments ?? [], answer.language)
    }

    /// Decodes the WAV `file` with the ggml model `model`, in the helper, waiting on the calling thread: a speech
    /// engine's queue (`WhisperEngine`). Throws as `transcribe(file:model:language:prompt:)`, `.cancelled` once
    /// `isCancelled` says so.
    public func transcribe(file: String, model: String, language: String, prompt: String = "", unless isCancelled: () -> Bool)
        throws(SpeechError) -> [WhisperModel.Segment]
    {
        let request = DecodingRequest(engine: .whisper, model: model, file: file, language: language, prompt: prompt)
        return try answer(request, unless: isCancelled).segments ?? []
    }
}

extension WhisperModel {
    /// The helper's answer to `request`, stopped by SIGUSR1 at libwhisper's next step: the segments, and the language
    /// they are in where the request gave several.
    func answer(_ request: DecodingRequest) throws(SpeechError) -> DecodingAnswer {
        let audio: [Float]
        if let bytes = request.audio {
            audio = DecodingHelperServer.samples(in: bytes)
            // A test seam: a helper this many seconds slower per utterance, as on a slow machine or with a large model.
            if let delay = DecodingHelperServer.testDelay("NOTULA_WHISPER_TEST_DELAY") { usleep(UInt32(delay * 1_000_000)) }
        } else {
            audio = try DecodingHelperServer.samples(of: request.file)
        }
        let languages = [request.language] + request.otherLanguages.prefix(WhisperEngine.mostOtherLanguages)
        let language = try likeliestLanguage(of: audio, among: languages)
        let segments = try transcribe(
            audio, language: language, prompt: request.prompt, fitted: request.fitted, isCancelled: DecodingHelperServer.isCancelled)
        return DecodingAnswer(segments: segments, language: languages.count > 1 ? language : nil)
    }
}
