import Glibc

/// A C library opened at run time from the first place it loads, and its functions looked up by name: libwhisper and
/// sherpa-onnx, each taken only in the release whose structs Notula declares.
struct RuntimeLibrary {
    let path: String
    private let handle: UnsafeMutableRawPointer

    /// Where to look, in order: `$variable`, then `file` beside the executable (where the make targets unpack it),
    /// then `../lib/notula/file` from there (installed).
    static func candidates(variable: String, file: String, environment: [String: String], executableDirectory: String) -> [String] {
        let directory = executableDirectory.hasSuffix("/") ? String(executableDirectory.dropLast()) : executableDirectory
        return [environment[variable]].compactMap { $0?.isEmpty == false ? $0 : nil }
            + [directory + "/" + file, directory + "/../lib/notula/" + file]
    }

    /// The first of `candidates` that loads.
    /// - Throws: `.engineUnavailable`: `name` was not found, where it looked (with the loader's reason where a file
    ///   was there), then `advice`.
    static func open(_ name: String, from candidates: [String], advice: String) throws(SpeechError) -> RuntimeLibrary {
        var looked: [String] = []
        for candidate in candidates {
            guard let handle = dlopen(candidate, RTLD_NOW | RTLD_LOCAL) else {
                looked.append(access(candidate, F_OK) == 0 ? "\(candidate) (\(dlerror().map { String(cString: $0) } ?? ""))" : candidate)
                continue
            }
            return RuntimeLibrary(path: candidate, handle: handle)
        }
        throw .engineUnavailable("\(name) was not found (looked in: \(looked.joined(separator: ", "))). \(advice)")
    }

    /// Refuses a library of another release than `expected`, as its function `symbol` names its own: Notula declares
    /// the structs of one release alone.
    /// - Throws: `.engineUnavailable` saying which release it found.
    func requireRelease(_ expected: String, of product: String, namedBy symbol: String) throws(SpeechError) {
        typealias Version = @convention(c) () -> UnsafePointer<CChar>?
        let found = try function(symbol, as: Version.self, release: "\(product) \(expected)")().map { String(cString: $0) } ?? "unknown"
        guard found == expected else {
            throw .engineUnavailable("\(path) is \(product) \(found); Notula calls only \(product) \(expected), whose structs it knows.")
        }
    }

    /// The function `symbol`, as `type`.
    /// - Throws: `.engineUnavailable` when the library lacks it: it is not `release`.
    func function<T>(_ symbol: String, as type: T.Type, release: String) throws(SpeechError) -> T {
        guard let address = dlsym(handle, symbol) else { throw .engineUnavailable("\(path) has no \(symbol): it is not \(release).") }
        return unsafeBitCast(address, to: type)
    }
}
