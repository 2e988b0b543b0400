/// `notulad`'s command line.
public struct ServiceOptions: Sendable, Equatable {
    /// The PulseAudio source to record from, over the settings.
    public var source: String?
    public var verbose = false

    public init(source: String? = nil, verbose: Bool = false) {
        self.source = source
        self.verbose = verbose
    }

    public static let usage = """
        Usage: notulad [--source NAME] [--verbose]

        Notula's recording service on the D-Bus session bus (org.notula.Notula1).

          --source NAME  record from this PulseAudio source instead of the default
                         (see `pactl list short sources`); overrides settings.json
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
