/// `notulad`'s command line.
public struct ServiceOptions: Sendable, Equatable {
    /// The PulseAudio source to record from, over the settings.
    public var source: String?
    public var verbose = false
    /// Take the bus name over from a running instance, which then saves its recording and exits.
    public var replace = false

    public init(source: String? = nil, verbose: Bool = false, replace: Bool = false) {
        self.source = source
        self.verbose = verbose
        self.replace = replace
    }

    public static let usage = """
        Usage: notulad [--source NAME] [--replace] [--verbose]

        Notula's recording service on the D-Bus session bus (org.notula.Notula1).

          --source NAME  record from this PulseAudio source instead of the default
                         (see `pactl list short sources`); overrides settings.json
          --replace      take over from the notulad running now (after an upgrade); it
                         keeps its recording in progress as a paused memo and exits
          --verbose      log debug lines too
          --help         show this help

        Exit status: 0 after SIGTERM/SIGINT, 1 on a failure, 2 when another instance owns
        the bus name, 64 on a bad command line.
        """

    public enum ParseResult: Equatable {
        case run(ServiceOptions)
        case help
        case invalid(String)
    }

    public static func parse(_ arguments: [String]) -> ParseResult {
        var options = ServiceOptions()
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h": return .help
            case "--verbose", "-v": options.verbose = true
            case "--replace": options.replace = true
            case "--source":
                guard let name = remaining.popFirst(), !name.isEmpty else { return .invalid("--source needs a source name") }
                options.source = name
            default:
                if argument.hasPrefix("--source=") {
                    options.source = String(argument.dropFirst("--source=".count))
                } else {
                    return .invalid("Unknown option \(argument)")
                }
            }
        }
        return .run(options)
    }
}
