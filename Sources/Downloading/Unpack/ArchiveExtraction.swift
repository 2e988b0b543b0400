import Glibc

/// One unpack under way: reads the archive entry by entry and writes what `UnpackedTree` admits into the
/// working directory, which is the folder (see `ExtractionThread`).
struct ArchiveExtraction {
    private let reader: ArchiveReader
    private let writer: DiskWriter
    /// The archive's and the folder's paths, for messages.
    private let archive: String
    private let folder: String
    private let maximumBytes: Int64
    private let room: DiskRoom
    private var tree = UnpackedTree()
    private var writtenBytes: Int64 = 0

    /// Files get no more than 0600, folders 0700: what is unpacked is read by its owner only.
    private static let filePermissions: mode_t = 0o600
    private static let folderPermissions: mode_t = 0o700

    /// Starts reading the archive.
    /// - Parameters:
    ///   - source: The archive, open; it stays the caller's to close.
    ///   - archive: Its path, for messages.
    ///   - folder: The folder's path, for messages.
    ///   - maximumBytes: The most the entries' data may add up to.
    ///   - room: What the unpack may take of the folder's disk.
    /// - Throws: `.unreadable` when the archive does not start as a zip or tar archive.
    init(source: Int32, archive: String, folder: String, maximumBytes: Int64, room: DiskRoom) throws(UnpackError) {
        reader = try Self.reader(of: source, archive: archive)
        writer = try Self.writer(into: folder)
        self.archive = archive
        self.folder = folder
        self.maximumBytes = maximumBytes
        self.room = room
    }

    private static func reader(of source: Int32, archive: String) throws(UnpackError) -> ArchiveReader {
        do {
            return try ArchiveReader(descriptor: source)
        } catch {
            throw .unreadable(archive: archive, reason: error.message)
        }
    }

    private static func writer(into folder: String) throws(UnpackError) -> DiskWriter {
        do {
            return try DiskWriter()
        } catch {
            throw .fileError(path: folder, reason: error.message)
        }
    }

    /// Unpacks every entry, each checked before anything of it is written.
    /// - Parameter isCancelled: Asked before every entry and every block.
    /// - Returns: The names of the top-level entries, in the archive's order.
    /// - Throws: The first `UnpackError`; what was written so far stays, for the caller to remove.
    mutating func run(isCancelled: () -> Bool) throws(UnpackError) -> [String] {
        while let header = try nextHeader(isCancelled: isCancelled) {
            guard let admission = try tree.admit(header) else { continue }
            for missingFolder in admission.missingFolders {
                try create(missingFolder, as: .directory)
                try finish(missingFolder)
            }
            try create(admission.path, as: admission.type)
            try copyData(to: admission.path, isCancelled: isCancelled)
            try finish(admission.path)
        }
        do {
            try writer.close()
        } catch {
            throw writeError(error, path: nil)
        }
        return tree.topLevelNames
    }

    private func nextHeader(isCancelled: () -> Bool) throws(UnpackError) -> EntryHeader? {
        guard !isCancelled() else { throw .cancelled }
        do {
            return try reader.nextHeader()
        } catch {
            throw .unreadable(archive: archive, reason: error.message)
        }
    }

    private func create(_ path: String, as type: AdmittedType) throws(UnpackError) {
        do {
            try writer.create(path, as: type, permissions: type == .directory ? Self.folderPermissions : Self.filePermissions)
        } catch {
            throw writeError(error, path: path)
        }
    }

    private func finish(_ path: String) throws(UnpackError) {
        do {
            try writer.finishEntry()
        } catch {
            throw writeError(error, path: path)
        }
    }

    /// Copies the current entry's data, counting the bytes as they are written rather than trusting the
    /// header's size: a zip bomb stops at the limit, or at the room the disk keeps free (checked every MiB).
    private mutating func copyData(to path: String, isCancelled: () -> Bool) throws(UnpackError) {
        while true {
            guard !isCancelled() else { throw .cancelled }
            let block: DataBlock
            do {
                guard let next = try reader.nextBlock() else { return }
                block = next
            } catch {
                throw .unreadable(archive: archive, reason: error.message)
            }
            let before = writtenBytes
            writtenBytes += Int64(block.bytes.count)
            guard writtenBytes <= maximumBytes else { throw .tooLarge(limit: maximumBytes) }
            if DiskRoom.isCheckDue(from: before, to: writtenBytes), let free = room.freeBytesWhenShort(needing: 0) {
                throw .noRoom(folder: folder, free: free, keptFree: room.keptFree)
            }
            do {
                try writer.write(block)
            } catch {
                throw writeError(error, path: path)
            }
        }
    }

    /// A full disk (or quota) is told apart, as the user can do something about it.
    /// - Parameter path: The entry written, relative to the folder; nil for the folder as a whole.
    private func writeError(_ failure: ArchiveFailure, path: String?) -> UnpackError {
        guard failure.code != ENOSPC, failure.code != EDQUOT else { return .diskFull(folder: folder) }
        return .fileError(path: path.map { folder + "/" + $0 } ?? folder, reason: failure.message)
    }
}
