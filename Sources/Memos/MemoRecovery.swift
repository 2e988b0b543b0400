import FoundationEssentials
import Library
import Recording

/// Nothing lost: what a killed service or a power cut left behind is repaired at start, and
/// what does not add up is reported, never deleted.
extension MemoLibrary {
    /// Memos left `recording` or `transcribing` get their WAV header rewritten from the samples on
    /// disk and become `recovered`; one whose audio cannot be repaired becomes `failed`, saying why,
    /// so that no memo stays unfinished (refusing Delete) for good.
    /// - Returns: the recovered memos, to be transcribed once the bus is up.
    func recoverUnfinished() throws(LibraryError) -> [Memo] {
        var recovered: [Memo] = []
        for memo in try store.memos(withStatus: [.recording, .transcribing]) {
            switch Result(catching: { () throws(RepairError) in try repair(memo.audioFile) }) {
            case .success(let duration):
                recovered.append(
                    try store.update(memo.id) {
                        $0.status = .recovered
                        $0.duration = duration
                    })
                Log.info("Recovered memo \(memo.id), left \(memo.status.rawValue): \(duration) s of audio in \(memo.audioFile)")
            case .failure(let error):
                let stage = memo.status == .recording ? "recorded" : "transcribed"
                let reason = "Notula stopped while this memo was \(stage), and \(error.reason)."
                try store.update(memo.id) {
                    $0.status = .failed
                    $0.failure = reason
                }
                Log.error("Memo \(memo.id) cannot be recovered: \(reason)")
            }
        }
        return recovered
    }

    /// Logs audio files no memo points to and memos whose audio file is gone: the first few by
    /// name and how many in all, so that a lost folder does not fill the journal.
    func reportStrays() throws(LibraryError) {
        var lost = StrayReport(all: "memos have lost their audio files")
        try store.forEachAudioFile { id, file in
            if !FileManager.default.fileExists(atPath: file) { lost.add("Memo \(id) has lost its audio file \(file)") }
        }
        lost.log()
        var unowned = StrayReport(all: "audio files belong to no memo")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: recordingsFolder)) ?? []
        for name in names.sorted() where name.hasSuffix(".wav") {
            let file = recordingsFolder + "/" + name
            if try store.id(ofAudioFile: file) == nil { unowned.add("Audio file \(file) belongs to no memo") }
        }
        unowned.log()
    }

    /// Transcribes a recovered memo once its model is installed; it stays `recovered`, now with its text.
    func transcribeRecovered(_ memo: Memo) async {
        await models.settled(memo.locale)
        do throws(RecordingError) {
            let transcript = try await transcriber.text(of: RecordingID(memo.id), file: memo.audioFile, in: memo.locale)
            try advance(memo.id, .transcribed) { $0.take(transcript) }
            Log.info("Recovered memo \(memo.id) transcribed")
        } catch {
            Log.warning("Recovered memo \(memo.id) is not transcribed: \(error.message)")
        }
    }
}

/// Strays of one kind found at start: the first few named, the rest counted.
private struct StrayReport {
    static let named = 10
    let all: String
    private var first: [String] = []
    private var count = 0

    init(all: String) { self.all = all }

    mutating func add(_ stray: String) {
        count += 1
        if first.count < Self.named { first.append(stray) }
    }

    func log() {
        for stray in first { Log.warning("\(stray); kept as it is") }
        if count > first.count { Log.warning("\(count) \(all) in all; kept as they are") }
    }
}
