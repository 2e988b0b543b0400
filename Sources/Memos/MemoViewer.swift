import Dispatch
import FoundationEssentials
import Recording

#if canImport(Glibc)
    import Glibc
#endif

/// Opens a memo's text in the user's own application for text files: the click on a result
/// notification. The text is written only then, into Notula's data folder (`transcripts/`, 0700;
/// the file 0600, as private as the recording), and handed to `xdg-open`, which picks the
/// user's default application; nothing is written for results nobody opens.
public struct MemoViewer: Sendable {
    let folder: String
    let memos: MemoLibrary

    public init(folder: String, memos: MemoLibrary) {
        self.folder = folder
        self.memos = memos
    }

    /// Runs on the memo library's executor.
    public func open(_ recording: RecordingID) {
        guard let text = memos.assumeIsolated({ $0.text(of: recording) }) else {
            return Log.warning("Memo \(recording) has no text to open")
        }
        let file = folder + "/" + recording.rawValue + ".txt"
        do throws(FileError) { try PrivateFiles.replace(file, with: Array(text.utf8)) } catch {
            return Log.warning("Cannot write \(file) to open memo \(recording): \(error.message)")
        }
        launch(["xdg-open", file])
    }

    /// Starts `arguments` found on PATH, without waiting for it, and reaps it when it ends.
    private func launch(_ arguments: [String]) {
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child = pid_t()
        let status = posix_spawnp(&child, arguments[0], nil, nil, argv, environ)
        guard status == 0 else {
            return Log.warning("Cannot start \(arguments[0]): \(String(cString: strerror(status)))")
        }
        let started = child
        DispatchQueue.global().async { _ = waitpid(started, nil, 0) }
    }
}
