import Dispatch
import Downloading
import FoundationEssentials
import Glibc
import Synchronization

/// Installs one model of the catalog: downloaded (resuming what an interrupted download left), checked against
/// the catalog's size and MD5, unpacked into a hidden folder beside the installed models, checked to load, and
/// renamed into place in one step — so that a model folder is either whole or absent. A Whisper model is one file:
/// checked against its SHA-1 and its ggml header, then renamed into place.
public final class ModelInstallation: Sendable {
    public let entry: CatalogEntry
    /// Where the model's folder goes.
    let modelsFolder: String
    let partialFile: String
    private let download: HTTPDownload
    private let cancelled = Atomic<Bool>(false)

    /// The most a model may unpack to, so that no archive fills the disk: several times the largest small model,
    /// and for a big one twice the largest Vosk publishes (`vosk-model-en-us-0.42-gigaspeech`, 2.3 GB zipped).
    public static func maximumUnpackedBytes(of kind: ModelKind) -> Int64 { kind == .small ? 2_000_000_000 : 10_000_000_000 }
    /// The largest archive downloaded, whatever the catalog says; for Whisper, above its largest model (large-v3,
    /// 2.9 GiB).
    public static func maximumArchiveBytes(of kind: ModelKind) -> Int64 {
        switch kind {
        case .small: 2_000_000_000
        case .whisper: 3_500_000_000
        default: 5_000_000_000
        }
    }
    /// What a download and its unpack leave free on their disks: an hour of recording (115 MB) and the memo
    /// library's room, so that a model never makes a recording on the same disk pause as disk-full.
    public static let keptFreeBytes: Int64 = 128_000_000

    /// Prepares the installation of `entry`; nothing happens until `run`.
    /// - Parameters:
    ///   - modelsFolder: Notula's own models folder, created 0700 if missing.
    ///   - downloadsFolder: Where the archive is downloaded to, and kept while incomplete.
    /// - Throws: `.failed` when the catalog names the model with anything but a model folder's name, or gives it
    ///   a size over `maximumArchiveBytes`.
    public init(entry: CatalogEntry, modelsFolder: String, downloadsFolder: String) throws(InstallError) {
        let isWhisper = entry.kind == .whisper
        guard Self.isNamed(entry), !entry.name.contains("/") else {
            let what = isWhisper ? "ggml Whisper model" : entry.kind.isSherpa ? "sherpa-onnx archive Notula runs" : "Vosk model folder"
            throw .failed("The catalog's model '\(entry.name)' does not have the name of a \(what).")
        }
        let size = Int64(entry.size)
        let largest = Self.maximumArchiveBytes(of: entry.kind)
        guard size <= largest else {
            throw .failed(
                "The catalog gives the model \(entry.name) \(DownloadError.text(forByteCount: size)), more than the "
                    + "\(DownloadError.text(forByteCount: largest)) a model may take; it is not downloaded.")
        }
        self.entry = entry
        self.modelsFolder = modelsFolder
        partialFile = downloadsFolder + "/" + entry.name + (isWhisper ? ".bin.part" : entry.kind.isSherpa ? ".tar.bz2.part" : ".zip.part")
        download = HTTPDownload(
            url: entry.url.absoluteString, partialFile: partialFile, maximumBytes: size, keepingFree: Self.keptFreeBytes)
    }

    /// Whether the entry's name is one of its kind's: a ggml file's, a Vosk folder's, or one of the sherpa-onnx archives
    /// Notula knows the files of (once unpacked, no other folder would count as a model).
    private static func isNamed(_ entry: CatalogEntry) -> Bool {
        if entry.kind == .whisper { return WhisperModelName(name: entry.name) != nil }
        guard entry.kind.isSherpa else { return ModelFolderName(entry.name) != nil }
        return SherpaModelName(entry.name)?.kind == entry.kind
    }

    /// Installs the model and returns it.
    /// - Parameters:
    ///   - progress: Bytes of the archive received so far (resumed ones included), from the download's thread.
    ///   - loads: Checks that a folder is a model the engine loads; throws saying why not.
    /// - Throws: `.cancelled` after `cancel()`, having deleted all it wrote; `.failed` with a message for a person
    ///   otherwise, leaving the models folder as it was, and the downloads folder too but for an interrupted
    ///   download, to resume next time.
    public func run(
        progress: @escaping @Sendable (Int64) -> Void, loads: @escaping ModelLoadCheck
    ) async throws(InstallError) -> InstalledModel {
        do throws(DownloadError) {
            try await download.run { received, _ in progress(received) }
            // A Whisper model's size is a bound (see `WhisperCatalog`): its SHA-1 tells it whole.
            try HTTPDownload.verify(file: partialFile, bytes: entry.kind == .whisper ? nil : Int64(entry.size), checksum: entry.checksum)
        } catch {
            switch error {
            case .cancelled:
                unlink(partialFile)
                throw .cancelled
            case .interrupted, .unreachable, .httpStatus:
                // What came is right so far: the next attempt resumes it.
                throw .failed("The model for \(entry.languageName) could not be downloaded: \(error.message)")
            case .checksumMismatch, .sizeMismatch:
                // Bytes that are wrong are not worth resuming.
                unlink(partialFile)
                throw .failed("The model for \(entry.languageName) did not download correctly: \(error.message)")
            default:
                // Too much sent, no room or a full disk, a refused address: what was written goes, and its room
                // comes back at once.
                unlink(partialFile)
                throw .failed("The model for \(entry.languageName) could not be downloaded: \(error.message)")
            }
        }
        let outcome = await withCheckedContinuation { continuation in
            // Unpacking and loading take seconds of blocking work: not on the threads Swift's tasks share.
            DispatchQueue.global(qos: .utility).async {
                continuation.resume(
                    returning: Result { () throws(InstallError) in
                        try self.entry.kind == .whisper ? self.placeWhisperFile() : self.place(loads)
                    })
            }
        }
        // Checked against its checksum already: the archive is done with, whatever the outcome.
        unlink(partialFile)
        return try outcome.get()
    }

    /// Stops the installation at the next block of the download or the unpacking.
    public func cancel() {
        cancelled.store(true, ordering: .relaxed)
        download.cancel()
    }

    private var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Unpacks the downloaded archive beside the models, checks it, and renames the model into place.
    private func place(_ loads: ModelLoadCheck) throws(InstallError) -> InstalledModel {
        let destination = modelsFolder + "/" + entry.name
        let unpacking = modelsFolder + "/.installing-" + entry.name
        try makeModelsFolder()
        // What a crash during an earlier installation left.
        try? FileManager.default.removeItem(atPath: unpacking)
        defer { try? FileManager.default.removeItem(atPath: unpacking) }
        let topLevel: [String]
        do throws(UnpackError) {
            topLevel = try ArchiveUnpacker.unpack(
                partialFile, into: unpacking, maximumBytes: Self.maximumUnpackedBytes(of: entry.kind), keepingFree: Self.keptFreeBytes,
                isCancelled: { self.isCancelled })
        } catch {
            if error == .cancelled { throw .cancelled }
            throw .failed("The model for \(entry.languageName) could not be unpacked: \(error.message)")
        }
        let root = topLevel.count == 1 ? unpacking + "/" + topLevel[0] : unpacking
        if entry.kind.isSherpa {
            if let missing = SherpaModelFiles.missing(in: root, of: entry.kind) {
                throw .failed("The archive of \(entry.name) holds no \(entry.kind) model: it lacks \(missing).")
            }
        } else if !InstalledModels.isModel(atPath: root) {
            throw .failed("The archive of \(entry.name) holds no Vosk model (no folder with am/final.mdl and conf/model.conf).")
        }
        do throws(UnloadableModel) { try loads(root, entry.kind) } catch {
            throw .failed("The model for \(entry.languageName) was downloaded but does not load: \(error.message)")
        }
        guard !isCancelled else { throw .cancelled }
        guard rename(root, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            throw .failed("Cannot move the model into \(destination): \(reason).")
        }
        return InstalledModel(locale: entry.locales.first ?? entry.voskCode, path: destination, name: entry.name, kind: entry.kind)
    }
}

/// Why a model was not installed.
public enum InstallError: Error, Sendable, Equatable {
    /// The user cancelled; nothing of the installation is left.
    case cancelled
    /// Anything else, in words a person can act on.
    case failed(String)

    public var message: String {
        switch self {
        case .cancelled: "The download was cancelled."
        case .failed(let message): message
        }
    }
}
