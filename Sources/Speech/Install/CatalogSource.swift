import FoundationEssentials
import Glibc

/// Vosk's catalog from where it is published, kept in a cache file so that an offline start still knows it.
public struct CatalogSource: Sendable {
    /// An http(s) or file URL, or an absolute path.
    public let address: String
    /// Where the last catalog fetched is kept.
    public let cacheFile: String

    /// The catalog is about 20 KB; anything past this is not Vosk's catalog.
    private static let maximumBytes = 4_000_000

    public init(address: String, cacheFile: String) {
        self.address = address
        self.cacheFile = cacheFile
    }

    /// The catalog fetched last time, or nil when none was or it cannot be read.
    public func cached() -> ModelCatalog? {
        guard let data = FileManager.default.contents(atPath: cacheFile) else { return nil }
        return try? ModelCatalog(json: data)
    }

    /// Fetches the catalog and keeps it in the cache.
    /// - Throws: `CatalogError` saying why when it cannot be fetched or read; the cache is then left as it was.
    public func fetch() async throws(CatalogError) -> ModelCatalog {
        let bytes: [UInt8]
        do throws(DownloadError) { bytes = try await HTTPDownload.fetch(address, maximumBytes: Self.maximumBytes) } catch {
            throw CatalogError(message: "Cannot fetch the model catalog from \(address): \(error.message)")
        }
        let catalog = try ModelCatalog(json: Data(bytes))
        keep(bytes)
        return catalog
    }

    /// Writes the cache at once or not at all; a cache that cannot be written only costs the next offline start.
    private func keep(_ bytes: [UInt8]) {
        let folder = String(cacheFile[..<(cacheFile.lastIndex(of: "/") ?? cacheFile.startIndex)])
        let staging = cacheFile + ".new"
        guard
            (try? FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])) != nil,
            FileManager.default.createFile(atPath: staging, contents: Data(bytes), attributes: [.posixPermissions: 0o600]),
            rename(staging, cacheFile) == 0
        else {
            unlink(staging)
            return
        }
    }
}
