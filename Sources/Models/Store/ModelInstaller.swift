import FoundationEssentials
import Glibc
import Recording

/// Puts models into Notula's folder and takes them out: one installation at a time, the recordings that wait for it,
/// and deletion. The `ModelStore` owns it, on its executor, and reports what it does.
public struct ModelInstaller: Sendable {
    let places: ModelPlaces
    /// Checks that an unpacked model loads before it is installed.
    let loads: ModelLoadCheck
    /// The installation in flight.
    private(set) var current: Installing?

    struct Installing {
        let locale: String
        let model: String
        let installation: ModelInstallation
        var progress = 0.0
        /// Transcriptions waiting for this model.
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    }

    /// - Parameter loads: Checks that an unpacked model loads; throws saying why not.
    public init(places: ModelPlaces, loads: @escaping ModelLoadCheck) {
        self.places = places
        self.loads = loads
    }

    /// Makes the installation of `entry` for `locale` the one in flight, cancelling the one before, whose waiters go
    /// on (and fail saying their model is not coming); the caller runs it.
    /// - Throws: `failed` for a catalog entry that cannot be installed.
    mutating func begin(_ entry: CatalogEntry, for locale: String) throws(ModelError) -> ModelInstallation {
        let installation: ModelInstallation
        do throws(InstallError) {
            installation = try ModelInstallation(entry: entry, modelsFolder: places.notula, downloadsFolder: places.downloads)
        } catch {
            throw .failed(error.message)
        }
        if let superseded = current {
            superseded.installation.cancel()
            superseded.waiters.values.forEach { $0.resume() }
        }
        current = Installing(locale: locale, model: entry.name, installation: installation)
        return installation
    }

    /// Takes `progress` of `installation`: its locale when it is the one in flight and went forward, nil otherwise.
    mutating func progressed(_ installation: ModelInstallation, _ progress: Double) -> String? {
        guard let installing = current, installing.installation === installation, progress > installing.progress else { return nil }
        current?.progress = progress
        return installing.locale
    }

    /// `installation` is over: when it was the one in flight, no installation is, and its waiters go on.
    /// - Returns: Whether it was the one in flight.
    mutating func ended(_ installation: ModelInstallation) -> Bool {
        guard let installing = current, installing.installation === installation else { return false }
        current = nil
        installing.waiters.values.forEach { $0.resume() }
        return true
    }

    /// Makes `continuation` wait for the installation in flight; resumed at once without one.
    mutating func wait(_ waiter: Int, _ continuation: CheckedContinuation<Void, Never>) {
        guard current != nil else { return continuation.resume() }
        current?.waiters[waiter] = continuation
    }

    /// Lets `waiter` go on at once.
    mutating func stopWaiting(_ waiter: Int) {
        current?.waiters.removeValue(forKey: waiter)?.resume()
    }

    /// Whether Notula installed `model`: only those are deleted.
    func isNotulas(_ model: InstalledModel) -> Bool { model.path.hasPrefix(places.notula + "/") }

    /// Deletes `model`, renamed first, so that it disappears at once rather than file by file.
    /// - Throws: `failed` when it cannot be renamed.
    func delete(_ model: InstalledModel) throws(ModelError) {
        let doomed = places.notula + "/.removing-" + model.name
        guard rename(model.path, doomed) == 0 else {
            throw .failed("Cannot delete \(model.path): \(String(cString: strerror(errno))).")
        }
        try? FileManager.default.removeItem(atPath: doomed)
        Log.info("Removed the \(model.locale) model \(model.path)")
    }
}
