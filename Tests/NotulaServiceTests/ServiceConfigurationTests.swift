import Foundation
import NotulaService
import Testing

@Suite("notulad's command line, settings and folders")
struct ServiceConfigurationTests {
    @Test func commandLine() {
        #expect(ServiceOptions.parse([]) == .run(ServiceOptions()))
        #expect(
            ServiceOptions.parse(["--source", "alsa_input.usb", "--verbose"])
                == .run(ServiceOptions(source: "alsa_input.usb", verbose: true)))
        #expect(ServiceOptions.parse(["--source=mic.monitor"]) == .run(ServiceOptions(source: "mic.monitor")))
        #expect(ServiceOptions.parse(["--replace"]) == .run(ServiceOptions(replace: true)))
        #expect(ServiceOptions.parse(["--help"]) == .help)
        #expect(ServiceOptions.parse(["--source"]) == .invalid("--source needs a source name"))
        #expect(ServiceOptions.parse(["--loud"]) == .invalid("Unknown option --loud"))
    }

    @Test func foldersFollowXDG() {
        let paths = Paths(environment: ["HOME": "/home/ann", "XDG_DATA_HOME": "/data", "XDG_CONFIG_HOME": "relative/is/ignored"])
        #expect(paths.recordings == "/data/notula/recordings")
        #expect(paths.settingsFile == "/home/ann/.config/notula/settings.json")
        let defaults = Paths(environment: ["HOME": "/home/ann"])
        #expect(defaults.recordings == "/home/ann/.local/share/notula/recordings")
    }

    @Test func settingsFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("settings.json").path
        #expect(Settings.load(from: file) == Settings())
        try Data(#"{"source": "usb_mic", "unknown": 1}"#.utf8).write(to: URL(fileURLWithPath: file))
        #expect(Settings.load(from: file) == Settings(source: "usb_mic"))
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: file))
        #expect(Settings.load(from: file) == Settings())
    }

    @Test func settingsOutOfRangeOrOfTheWrongTypeGiveTheDefaults() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("settings.json").path
        let defaults = Settings()
        for value in ["1e30", "1e15", "-5", "-1e308", "1e309", "0.5", #""abc""#, "true", "[]", "null"] {
            try Data(#"{"source": "usb_mic", "modelIdleSeconds": \#(value), "longestMemoSeconds": \#(value)}"#.utf8)
                .write(to: URL(fileURLWithPath: file))
            var warnings: [String] = []
            let settings = Settings.load(from: file) { warnings.append($0) }
            #expect(settings.source == "usb_mic", "\(value): the good fields stay")
            #expect(settings.modelIdleRelease == defaults.modelIdleRelease || value == "0.5", "\(value)")
            #expect(settings.memoLengthLimit == defaults.memoLengthLimit, "\(value)")
            #expect(warnings.contains { $0.contains("longestMemoSeconds") } || value == "null", "\(value): \(warnings)")
        }
        try Data(#"{"source": 7, "locale": ["nl"], "mpris": "yes", "modelCatalog": {}, "modelIdleSeconds": 30}"#.utf8)
            .write(to: URL(fileURLWithPath: file))
        var warnings: [String] = []
        #expect(Settings.load(from: file) { warnings.append($0) } == Settings(modelIdleSeconds: 30))
        #expect(warnings.count == 4, "\(warnings)")
    }
}
