import Recording

/// Decodes memos' kept audio again with a model the user names: one at a time, in the order asked, each once its
/// model is installed, through the seams to speech (`Transcribing`, `ModelWaiting`). The library decides which memo
/// may be transcribed again and writes what comes back.
final class MemoRetranscriber: Sendable {
    /// A memo's audio to decode again, and with what.
    struct Job: Sendable {
        let id: String
        let file: String
        let locale: String
        let model: String
    }

    private let transcriber: any Transcribing
    private let models: any ModelWaiting
    private let queued: AsyncStream<Job>.Continuation
    /// The jobs in the order they were queued, each taken once.
    let jobs: AsyncStream<Job>

    init(transcriber: any Transcribing, models: any ModelWaiting) {
        self.transcriber = transcriber
        self.models = models
        (jobs, queued) = AsyncStream.makeStream(of: Job.self)
    }

    func queue(_ job: Job) {
        queued.yield(job)
    }

    /// The job's text, once a model being downloaded for it is in.
    /// - Throws: why it could not be decoded.
    func text(of job: Job) async throws(RecordingError) -> MemoText {
        await models.settled(job.locale)
        return try await transcriber.text(ofFile: job.file, in: job.locale, model: job.model)
    }
}
