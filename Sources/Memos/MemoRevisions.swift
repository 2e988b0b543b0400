import Recording

/// Memos processed before the accurate pass had written all their utterances: their text is written again, once,
/// when it has.
extension MemoLibrary {
    /// The utterances of the memo whose Whisper text is still coming; empty for most.
    public func pendingUtterances(of id: String) -> [Int] {
        revisions[id]?.pending ?? []
    }

    /// Keeps the memo's revision and takes its text when it comes.
    func awaitRevision(_ revision: MemoRevision, of id: String) {
        revisions[id] = revision
        Task {
            let text = await revision.completed()
            revised(id, text)
        }
    }

    private func revised(_ id: String, _ text: MemoText) {
        // Deleted meanwhile: nothing to write.
        guard revisions.removeValue(forKey: id) != nil else { return }
        do throws(RecordingError) {
            try advance(id, .transcribed) { $0.take(text) }
            Log.info("Memo \(id) has Whisper's text for every utterance now (\(text.model))")
        } catch {
            Log.warning("Memo \(id) keeps Vosk's text for some utterances: \(error.message)")
        }
    }
}
