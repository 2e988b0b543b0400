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

    /// Starts `arguments` found on PATH, without waiting for it (`ChildSpawn.launch` reaps it). It gets notulad's whole
    /// environment, the session bus's address with it: `xdg-open` starts the user's own editor, which may be started
    /// over the bus (a D-Bus-activatable application) and needs the desktop as any application does. No descriptor but
    /// /dev/null as its input and the journal as its output reaches it.
    private func launch(_ arguments: [String]) {
        let started = ChildSpawn.launch(
            arguments[0], Array(arguments.dropFirst()), standard: [nil, STDOUT_FILENO, STDERR_FILENO],
            environment: ChildSpawn.ownEnvironment(), defaultSignals: [SIGPIPE], searchingPath: true)
        if case .failure(let error) = started { Log.warning("Cannot start \(arguments[0]): \(error.message)") }
    }
}
