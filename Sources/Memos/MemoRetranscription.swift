import FoundationEssentials
import Library
import Recording

/// A memo's kept audio transcribed again, with the model the user names: the library checks the memo may be, and
/// writes the new text or why not; `MemoRetranscriber` decodes it, one memo at a time, in the order asked.
extension MemoLibrary {
    /// Queues the memo to be transcribed again in `locale` by `model`; its status is `transcribing` until the new text
    /// replaces the old (`done`), or the old stays (`failed`, with the reason).
    /// - Throws: `noSuchMemo`, `stillRecording` or `stillTranscribing` for a memo without a finished recording or
    ///   already being transcribed, `audioGone` when its audio file is.
    public func transcribeAgain(_ id: String, in locale: String, model: String) throws(MemoError) {
        let memo = try transcribable(id)
        do throws(LibraryError) { try change(id, .progress) { $0.status = .transcribing } } catch { throw MemoError(error) }
        Log.info("Memo \(id) is to be transcribed again in \(locale) with \(model)")
        retranscriber.queue(MemoRetranscriber.Job(id: id, file: memo.audioFile, locale: locale, model: model))
    }

    /// The memo, when it can be transcribed again now.
    /// - Throws: as `transcribeAgain(_:in:model:)`.
    public func transcribable(_ id: String) throws(MemoError) -> Memo {
        guard let memo = summary(id) else { throw .noSuchMemo(id) }
        guard memo.status != .recording, id != current else { throw .stillRecording }
        guard memo.status != .transcribing, revisions[id] == nil else { throw .stillTranscribing }
        guard FileManager.default.fileExists(atPath: memo.audioFile) else { throw .audioGone(memo: id, file: memo.audioFile) }
        return memo
    }

    /// Transcribes one queued memo; a memo deleted meanwhile is skipped.
    func retranscribe(_ job: MemoRetranscriber.Job) async {
        guard summary(job.id) != nil else { return }
        do throws(RecordingError) {
            let text = try await retranscriber.text(of: job)
            try advance(job.id, .transcribed) {
                $0.status = .done
                $0.locale = job.locale
                $0.failure = nil
                $0.take(text)
            }
            Log.info("Memo \(job.id) transcribed again in \(job.locale) with \(text.model)")
        } catch {
            Log.warning("Memo \(job.id) could not be transcribed again, and keeps its text: \(error.message)")
            try? advance(job.id) {
                $0.status = .failed
                $0.failure = error.message
            }
        }
    }
}
