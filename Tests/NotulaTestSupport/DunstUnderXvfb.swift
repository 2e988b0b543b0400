import DBus
import Foundation

/// A real notification server: dunst, drawing on an Xvfb display of its own, on a private bus.
/// Both are killed when the value goes.
public final class DunstUnderXvfb {
    /// The X display, `:N`, a free one Xvfb picked.
    public let display: String
    private let xvfb: Process
    private let dunst: Process
    private let environment: [String: String]

    public init(on bus: PrivateBus) async throws {
        xvfb = Process()
        xvfb.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
        // -displayfd: Xvfb picks a free display and prints its number once it accepts connections.
        xvfb.arguments = ["-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp"]
        let output = Pipe()
        xvfb.standardOutput = output
        xvfb.standardError = FileHandle.nullDevice
        try xvfb.run()
        display = ":" + (try readLine(from: output.fileHandleForReading))
        var environment = bus.environment
        environment["DISPLAY"] = display
        self.environment = environment
        dunst = Process()
        dunst.executableURL = URL(fileURLWithPath: "/usr/bin/dunst")
        dunst.environment = environment
        dunst.standardOutput = FileHandle.nullDevice
        dunst.standardError = FileHandle.nullDevice
        do { try await launch(dunst, owning: NotificationDaemonMock.name, on: bus) } catch {
            kill(xvfb)
            throw error
        }
    }

    deinit {
        kill(dunst)
        kill(xvfb)
    }

    /// Runs `dunstctl` against this dunst and returns what it printed.
    @discardableResult
    public func dunstctl(_ arguments: String...) throws -> String {
        try output(of: ["/usr/bin/dunstctl"] + arguments, environment: environment)
    }

    /// How many notifications dunst shows now.
    public func displayedCount() throws -> Int {
        Int(try dunstctl("count", "displayed").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Returns once dunst shows `count` notifications; throws when the deadline passes first. dunst
    /// reports what it draws nowhere but here, so this asks it again and again.
    public func waitUntilDisplayed(_ count: Int, within deadline: Duration = .seconds(10)) async throws {
        try await poll(within: deadline) {
            try displayedCount() == count
        } otherwise: {
            CommandFailed(command: ["dunstctl", "count"], status: 0, errorOutput: "never \(count) displayed")
        }
    }

    /// The summaries and app names of dunst's history (the notifications closed by the user or expired), newest first.
    public func history() throws -> [(appName: String, summary: String)] {
        let json = try dunstctl("history")
        guard let root = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            let pages = root["data"] as? [[[String: Any]]]
        else { return [] }
        func text(_ entry: [String: Any], _ key: String) -> String { (entry[key] as? [String: Any])?["data"] as? String ?? "" }
        return pages.flatMap { $0 }.map { (text($0, "appname"), text($0, "summary")) }
    }

    /// Saves a picture of the whole display.
    public func screenshot(to file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try output(of: "import", "-display", display, "-window", "root", file.path)
    }
}
