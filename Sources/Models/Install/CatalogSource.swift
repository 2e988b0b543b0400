import Downloading
import FoundationEssentials
import Glibc
import Recording

/// Vosk's catalog from where it is published, kept in a cache file so that an offline start still knows it.
public struct CatalogSource: Sendable {
    /// An http(s) or file URL, or an absolute path.
    public let address: String
    /// Where the last catalog fetched from `address` is kept: `model-list.json` for Vosk's own, a file named
    /// after the address for another, so that switching catalogs never shows one's models as the other's.
    public let cacheFile: String
    private let fetcher: DocumentFetcher

    /// The catalog is about 20 KB; anything past this is not Vosk's catalog.
    private static let maximumBytes = 4_000_000

    /// - Parameters:
    ///   - address: Where the catalog is published.
    ///   - cacheFolder: Notula's cache folder.
    ///   - fetcher: Where the catalog is fetched: a helper process keeps libcurl out of a long-lived service.
    public init(address: String, cacheFolder: String, fetcher: DocumentFetcher = .inProcess) {
        self.address = address
        self.fetcher = fetcher
        let name = address == ModelCatalog.address ? "model-list" : "model-list-" + Self.fingerprint(address)
        cacheFile = cacheFolder + "/" + name + ".json"
    }

    /// Whether the cached catalog was fetched less than `maximumAge` ago.
    public func isCacheFresh(maximumAge: Duration) -> Bool {
        var status = stat()
        guard stat(cacheFile, &status) == 0 else { return false }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Duration.seconds(now.tv_sec - status.st_mtim.tv_sec) < maximumAge
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
        do throws(DownloadError) { bytes = try await fetcher.fetch(address, maximumBytes: Self.maximumBytes) } catch {
            throw CatalogError(message: "Cannot fetch the model catalog from \(address): \(error.message)")
        }
        let catalog = try ModelCatalog(json: Data(bytes))
        keep(bytes)
        return catalog
    }

    /// FNV-1a of `text`, in hexadecimal: a stable file name for an address.
    private static func fingerprint(_ text: String) -> String {
        let hash = text.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// Writes the cache at once or not at all, 0600 from its first byte; a cache that cannot be written only
    /// costs the next offline start.
    private func keep(_ bytes: [UInt8]) {
        try? PrivateFiles.replace(cacheFile, with: bytes)
    }
}
