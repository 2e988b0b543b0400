import Glibc

/// libvosk, opened at run time so that Notula starts, and records, without it.
///
/// Loading resolves every function the engine calls, so a library that loads is complete.
/// The library is never closed: Kaldi's static state does not survive unloading, and
/// models and recognizers made from it may outlive any one value of this type.
public struct VoskLibrary: Sendable {
    /// The file that was opened, or `libvosk.so` when the dynamic loader found it.
    public let path: String
    let functions: VoskFunctions

    private init(path: String, functions: VoskFunctions) {
        self.path = path
        self.functions = functions
    }

    /// Where to look for libvosk, in order.
    ///
    /// `$NOTULA_VOSK_LIBRARY` if set, then `libvosk.so` beside the executable (where the make
    /// targets copy it), then `../lib/notula/libvosk.so` from there (where it is installed).
    /// - Parameters:
    ///   - environment: The process environment.
    ///   - executableDirectory: The folder holding the running executable.
    public static func defaultCandidates(environment: [String: String], executableDirectory: String) -> [String] {
        var candidates: [String] = []
        if let chosen = environment["NOTULA_VOSK_LIBRARY"], !chosen.isEmpty {
            candidates.append(chosen)
        }
        let directory = executableDirectory.hasSuffix("/") ? String(executableDirectory.dropLast()) : executableDirectory
        candidates.append(directory + "/libvosk.so")
        candidates.append(directory + "/../lib/notula/libvosk.so")
        return candidates
    }

    /// The first of `candidates` that is a file, with its symbolic links and `..` resolved: the libvosk a
    /// transcription will open, told before any is opened (opening maps 26 MB the service then keeps).
    public static func firstPresent(in candidates: [String]) -> String? {
        for candidate in candidates {
            guard let resolved = realpath(candidate, nil) else { continue }
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return nil
    }

    /// Opens the first of `candidates` that loads, else whatever `libvosk.so` the dynamic loader finds,
    /// resolves the engine's functions and quiets Kaldi's logging.
    /// - Parameter candidates: Paths of `libvosk.so` to try in order; see `defaultCandidates(environment:executableDirectory:)`.
    /// - Throws: `.engineUnavailable` saying where it looked and how to install libvosk, or naming the
    ///   function a loaded library lacks.
    /// The corresponding C functions are `dlopen`, `dlsym` and `vosk_set_log_level`.
    public static func load(searchingFrom candidates: [String]) throws(SpeechError) -> VoskLibrary {
        var looked: [String] = []
        for candidate in candidates + [nil] {
            // RTLD_LOCAL keeps libvosk's exported Kaldi, OpenFst and OpenBLAS symbols out of everyone else's way.
            // RTLD_DEEPBIND keeps them in libvosk's own: it carries its own copies of some libstdc++ internals
            // (the hash tables' rehash policy among them), and when they bind to the system libstdc++ that
            // every Swift process has loaded, hash tables iterate in another order and word timings and
            // confidences drift in the 5th decimal from what the same libvosk gives in Python or C.
            guard let handle = dlopen(candidate ?? "libvosk.so", RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND) else {
                looked.append(describeFailure(of: candidate))
                continue
            }
            let path = candidate ?? "libvosk.so"
            do {
                let library = VoskLibrary(path: path, functions: try VoskFunctions(handle: handle, path: path))
                library.functions.setLogLevel(-1)
                return library
            } catch {
                dlclose(handle)
                throw error
            }
        }
        throw .engineUnavailable(
            "libvosk was not found (looked in: \(looked.joined(separator: ", "))). "
                + "Install it with `pip install vosk` and run `make`, or point NOTULA_VOSK_LIBRARY at libvosk.so."
        )
    }

    /// A candidate as the error lists it: its path, with the loader's reason when the file exists but would not load.
    private static func describeFailure(of candidate: String?) -> String {
        let reason = dlerror().map { String(cString: $0) } ?? ""
        guard let candidate else { return "the dynamic loader's search path" }
        guard access(candidate, F_OK) == 0 else { return candidate }
        return "\(candidate) (\(reason))"
    }
}
