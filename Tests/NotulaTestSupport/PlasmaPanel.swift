import DBus
import Foundation

/// Plasma's own shell, plasmashell, in the headless KWin of a `PlasmaHost`: its panel along the bottom of the screen
/// with the system tray, the StatusNotifierItem host KDE users have (kded5, which it starts on the bus, is the
/// watcher). Seen through KWin's screenshots and used through the RemoteDesktop portal's pointer, as a hand would.
/// plasmashell and the pointer end when the value goes; what the bus started ends with the host.
public final class PlasmaPanel {
    /// The screen of `PlasmaHost`'s virtual output.
    public static let screenWidth = 1280
    public static let screenHeight = 800

    private let host: PlasmaHost
    private let shell: Process
    private let pointer: Process
    private let pointerInput: FileHandle
    private let pointerOutput: FileHandle
    private let client: Bus

    /// Starts plasmashell and returns once its tray hosts StatusNotifierItems and the portal's pointer is held (its
    /// session's own tray item registered, so the tray's layout no longer changes for it).
    public init(on host: PlasmaHost) async throws {
        self.host = host
        let session = host.session
        client = try await session.connect()
        // Do not disturb, as a user may set it: notifications (the portal's "Remote control session started",
        // notulad's own) go to the history without a popup over the screen the tests read.
        let config = session.home.appendingPathComponent(".config")
        try Data("[DoNotDisturb]\nUntil=2100,1,1,0,0,0\n".utf8).write(to: config.appendingPathComponent("plasmanotifyrc"))
        try session.giveToUser(config)
        shell = try session.sessionProcess(
            ["/usr/bin/env", "QT_QPA_PLATFORM=wayland", "/usr/bin/plasmashell", "--no-respawn"], log: "plasmashell")
        try await launch(shell, owning: "org.kde.plasmashell", watchedFrom: client)
        // kded5, the watcher, is started on demand a moment after plasmashell: not there yet is not a failure.
        try await poll(within: .seconds(30)) { [client] in
            (try? await Self.watcherProperty("IsStatusNotifierHostRegistered", through: client).get(Bool.self)) == true
        } otherwise: {
            CommandFailed(command: ["plasmashell"], status: 0, errorOutput: "no StatusNotifierWatcher with a host registered")
        }
        pointer = try session.sessionProcess(["/usr/bin/python3", Self.helper("pointer.py").path], log: "pointer")
        let input = Pipe()
        let output = Pipe()
        pointer.standardInput = input
        pointer.standardOutput = output
        pointerInput = input.fileHandleForWriting
        pointerOutput = output.fileHandleForReading
        let itemsBefore = try await registeredItems().count
        try pointer.run()
        guard try readLine(from: pointerOutput) == "ready" else {
            throw CommandFailed(command: ["pointer.py"], status: 0, errorOutput: "the RemoteDesktop session did not start")
        }
        try await poll(within: .seconds(10)) {
            try await registeredItems().count > itemsBefore
        } otherwise: {
            CommandFailed(command: ["pointer.py"], status: 0, errorOutput: "the portal's remote-control item never came to the tray")
        }
    }

    deinit {
        kill(pointer)
        kill(shell)
        Task { [client] in await client.close() }
    }

    /// What the watcher lists: the items registered with it, as `NAME/PATH`.
    public func registeredItems() async throws -> [String] {
        try await Self.watcherProperty("RegisteredStatusNotifierItems", through: client).get([String].self)
    }

    /// Saves what the screen shows at `file` (a PNG), through KWin's ScreenShot2.
    public func screenshot(to file: URL) throws {
        let shot = host.session.home.appendingPathComponent("screen.png")
        let result = try host.session.runAsUser(["/usr/bin/python3", Self.helper("screenshot.py").path, shot.path])
        guard result.status == 0 else {
            throw CommandFailed(command: ["screenshot.py"], status: result.status, errorOutput: result.errorOutput)
        }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: file)
        try FileManager.default.moveItem(at: shot, to: file)
    }

    /// A mouse button.
    public enum Button: String { case left, right, none }

    /// Moves the pointer to the screen point (`x`, `y`) and clicks `button` there.
    public func click(_ button: Button, atX x: Int, y: Int) throws {
        try pointerInput.write(contentsOf: Data("\(x) \(y) \(button.rawValue)\n".utf8))
        guard try readLine(from: pointerOutput) == "done" else {
            throw CommandFailed(command: ["pointer.py"], status: 0, errorOutput: "the pointer did not move")
        }
    }

    private static func watcherProperty(_ name: String, through client: Bus) async throws -> Variant {
        let reply = try await client.call(
            MethodCall(
                destination: "org.kde.StatusNotifierWatcher", path: ObjectPath("/StatusNotifierWatcher")!,
                interface: "org.freedesktop.DBus.Properties", member: "Get",
                arguments: [.string("org.kde.StatusNotifierWatcher"), .string(name)]))
        return try reply.argument(0, as: Variant.self)
    }

    static func helper(_ name: String) -> URL { packageRoot.appendingPathComponent("Tests/plasma-host/\(name)") }
}

/// What screenshots of the panel show, read by `Tests/plasma-host/pixels.py`.
public enum ScreenPixels {
    /// A rectangle of the screen, in pixels.
    public struct Area: Sendable, Equatable, CustomStringConvertible {
        public let x, y, width, height: Int
        public init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
        public var centre: (x: Int, y: Int) { (x + width / 2, y + height / 2) }
        public var description: String { "\(width)x\(height)+\(x)+\(y)" }
        var arguments: [String] { [x, y, width, height].map(String.init) }
    }

    /// The share of red pixels in `area` (Breeze's record symbol is #da4453) and where they are centred.
    public static func red(in area: Area, of file: URL) throws -> (share: Double, x: Int, y: Int) {
        let words = try measure(["red", file.path] + area.arguments).split(separator: " ")
        return (Double(words[0]) ?? 0, Int(words[1]) ?? -1, Int(words[2]) ?? -1)
    }

    /// The box holding every pixel of `area` that differs between two screenshots; nil when none does.
    public static func changed(between first: URL, and second: URL, in area: Area) throws -> Area? {
        let words = try measure(["changed", first.path, second.path] + area.arguments).split(separator: " ").compactMap { Int($0) }
        return words.count == 4 ? Area(x: words[0], y: words[1], width: words[2], height: words[3]) : nil
    }

    /// A menu or popup that opened: its box and its lines of text, top to bottom.
    public struct Popup: Sendable, CustomStringConvertible {
        public struct Line: Sendable {
            public let top, bottom: Int
        }
        public let box: Area
        public let lines: [Line]
        public var description: String { "\(box) with lines at \(lines.map { "\($0.top)-\($0.bottom)" })" }
    }

    /// The popup in `area` that opened between the screenshots `before` and `after`; nil when none did.
    public static func popup(between before: URL, and after: URL, in area: Area) throws -> Popup? {
        let rows = try measure(["menu", before.path, after.path] + area.arguments).split(separator: "\n")
            .map { $0.split(separator: " ").compactMap { Int($0) } }
        guard let box = rows.first, box.count == 4 else { return nil }
        return Popup(
            box: Area(x: box[0], y: box[1], width: box[2], height: box[3]),
            lines: rows.dropFirst().map { Popup.Line(top: $0[0], bottom: $0[1]) })
    }

    /// The marks along a strip of a panel (its icons, its clock), left to right, as their left and right columns.
    public static func marks(along area: Area, of file: URL) throws -> [(left: Int, right: Int)] {
        try measure(["clusters", file.path] + area.arguments).split(separator: "\n").map { line in
            let columns = line.split(separator: " ").compactMap { Int($0) }
            return (columns[0], columns[1])
        }
    }

    /// How well the icon on the highlighted tile in `area` (Plasma's popup of hidden tray items highlights its first)
    /// matches each of Breeze's symbolic icons `names`, by the overlap of their shapes from 0 to 1; empty when no tile
    /// is highlighted.
    public static func iconMatches(onTheHighlightedTileIn area: Area, of file: URL, names: [String]) throws -> [String: Double] {
        let lines = try measure(["icon", file.path] + area.arguments + names).split(separator: "\n")
        return Dictionary(
            uniqueKeysWithValues: lines.compactMap { line in
                let words = line.split(separator: " ")
                return words.count == 2 ? Double(words[1]).map { (String(words[0]), $0) } : nil
            })
    }

    private static func measure(_ arguments: [String]) throws -> String {
        try output(of: ["/usr/bin/python3", PlasmaPanel.helper("pixels.py").path] + arguments)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

extension PlasmaPanel {
    /// Whether plasmashell can run here; the reason it cannot otherwise.
    public static func canRun() -> Result<Void, HeadlessSession.Unavailable> {
        let missing = ["/usr/bin/plasmashell", "/usr/bin/kded5", "/usr/share/plasma/shells/org.kde.plasma.desktop"]
            .filter { !FileManager.default.fileExists(atPath: $0) }
        guard missing.isEmpty else {
            return .failure(.init(reason: "missing \(missing.joined(separator: ", ")) for Plasma's panel: run make test-deps"))
        }
        return .success(())
    }
}
