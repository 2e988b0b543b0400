import Glibc

/// A C library opened at run time from the first place it loads, and its functions looked up by name: libwhisper and
/// sherpa-onnx, each taken only in the release whose structs Notula declares.
struct RuntimeLibrary {
    let path: String
    /// What the library must be, as a message names it: "libwhisper 1.8.5".
    private let product: String
    private let release: String
    private let handle: UnsafeMutableRawPointer

    /// Where to look, in order: `$variable`, then `file` beside the executable (where the make targets unpack it),
    /// then `../lib/notula/file` from there (installed).
    static func candidates(variable: String, file: String, environment: [String: String], executableDirectory: String) -> [String] {
        let directory = executableDirectory.hasSuffix("/") ? String(executableDirectory.dropLast()) : executableDirectory
        return [environment[variable]].compactMap { $0?.isEmpty == false ? $0 : nil }
            + [directory + "/" + file, directory + "/../lib/notula/" + file]
    }

    /// The first of `candidates` that loads, once it says it is `product`'s `release`: Notula declares the structs of
    /// one release alone.
    /// - Parameter versionSymbol: the library's function that names its release.
    /// - Throws: `.engineUnavailable`: `product` was not found, where it looked (with the loader's reason where a file
    ///   was there), then `advice`; or which release it is.
    static func open(
        _ product: String, release: String, versionSymbol: String, from candidates: [String], advice: String
    ) throws(SpeechError) -> RuntimeLibrary {
        var looked: [String] = []
        for candidate in candidates {
            guard let handle = dlopen(candidate, RTLD_NOW | RTLD_LOCAL) else {
                looked.append(access(candidate, F_OK) == 0 ? "\(candidate) (\(dlerror().map { String(cString: $0) } ?? ""))" : candidate)
                continue
            }
            let library = RuntimeLibrary(path: candidate, product: product, release: release, handle: handle)
            try library.requireRelease(namedBy: versionSymbol)
            return library
        }
        throw .engineUnavailable("\(product) was not found (looked in: \(looked.joined(separator: ", "))). \(advice)")
    }

    private func requireRelease(namedBy symbol: String) throws(SpeechError) {
        typealias Version = @convention(c) () -> UnsafePointer<CChar>?
        let found = try function(symbol, as: Version.self)().map { String(cString: $0) } ?? "unknown"
        guard found == release else {
            throw .engineUnavailable("\(path) is \(product) \(found); Notula calls only \(product) \(release), whose structs it knows.")
        }
    }

    /// The function `symbol`, as `type`.
    /// - Throws: `.engineUnavailable` when the library lacks it: it is not the release it said.
    func function<T>(_ symbol: String, as type: T.Type) throws(SpeechError) -> T {
        guard let address = dlsym(handle, symbol) else {
            throw .engineUnavailable("\(path) has no \(symbol): it is not \(product) \(release).")
        }
        return unsafeBitCast(address, to: type)
    }
}
