import Glibc
import Recording

/// notulad run again as a helper of its own (a fetch, a decoding): its standard input and output the descriptors
/// given, its error output this process's (the journal), no other descriptor, and only the environment it reads.
public enum HelperSpawn {
    /// Starts `executable` with `arguments` (after its own name).
    /// - Parameters:
    ///   - input: what becomes its standard input; /dev/null when nil.
    ///   - environment: `NAME=value` entries; `helperEnvironment` when nil.
    /// - Returns: its process id, or the error number `posix_spawn` gave.
    public static func start(
        _ executable: String, _ arguments: [String], input: Int32?, output: Int32, environment: [String]? = nil
    ) -> Result<pid_t, SpawnError> {
        ChildSpawn.start(executable, arguments, standard: [input, output, STDERR_FILENO], environment: environment ?? helperEnvironment)
    }

    /// Starts `executable` with `arguments`, its standard input and output pipes whose other ends are returned.
    /// - Parameter environment: `NAME=value` entries; `helperEnvironment` when nil.
    /// - Returns: the pipes' ends and its process id, or the error number of what failed.
    public static func startPiped(_ executable: String, _ arguments: [String], environment: [String]? = nil) -> Result<PipedChild, SpawnError> {
        ChildSpawn.startPiped(executable, arguments, environment: environment ?? helperEnvironment)
    }

    /// This process's environment, only what a fetch or a decoding reads: the locale, the time zone, proxies and
    /// certificates for libcurl, the library path, ggml's, OpenMP's and Notula's own settings. Not the session bus's
    /// address, the display's or the runtime folder: a helper has no business with the desktop's other programs.
    public static var helperEnvironment: [String] {
        ChildSpawn.ownEnvironment { name in
            ["PATH", "HOME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "LD_LIBRARY_PATH", "SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE"]
                .contains(name) || ["http_proxy", "https_proxy", "all_proxy", "no_proxy"].contains(name.lowercased())
                || ["LC_", "NOTULA_", "GGML_", "OMP_", "SWIFT_BACKTRACE"].contains { name.hasPrefix($0) }
        }
    }
}
