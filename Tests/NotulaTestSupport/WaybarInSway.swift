import DBus
import Foundation

/// A real StatusNotifierItem host: waybar with its tray module, in a headless sway, on a private bus. sway
/// refuses to run as root, so both run as `nobody` (the bus must be open to every user). Killed when the value goes.
public final class WaybarInSway {
    static let watcherName: BusName = "org.kde.StatusNotifierWatcher"
    /// nobody and nogroup: an account every Debian has, so the test makes none.
    static let user = "65534"
    /// The bar's height; the tray sits at its right end.
    public static let barHeight = 30

    private let folder: URL
    private let sway: Process
    private let client: Bus
    private let environment: [String: String]
    /// waybar, started by sway: found through the bus name it owns, to be ended with it.
    private let waybarProcess: UInt32

    public init(on bus: PrivateBus) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-sway-\(UUID().uuidString)")
        let runtime = folder.appendingPathComponent("run")
        let home = folder.appendingPathComponent("home")
        for (path, mode) in [(folder, 0o755), (runtime, 0o700), (home, 0o755)] {
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true, attributes: [.posixPermissions: mode])
        }
        for path in [runtime, home] { chown(path.path, 65534, 65534) }
        let waybarConfig = folder.appendingPathComponent("waybar.json")
        try Data(
            #"{"position": "top", "height": \#(Self.barHeight), "modules-right": ["tray"], "tray": {"icon-size": 22, "spacing": 8}}"#.utf8
        ).write(to: waybarConfig)
        let swayConfig = folder.appendingPathComponent("sway.conf")
        try Data("output HEADLESS-1 resolution 1280x300\nexec waybar -c \(waybarConfig.path)\n".utf8).write(to: swayConfig)

        environment = [
            "HOME": home.path, "XDG_RUNTIME_DIR": runtime.path, "DBUS_SESSION_BUS_ADDRESS": bus.address, "PATH": "/usr/bin:/bin",
            "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman",
        ]
        sway = Self.asNobody(["sway", "-c", swayConfig.path], environment: environment)
        sway.standardError = try FileHandle(forWritingTo: Self.emptyFile(folder.appendingPathComponent("sway.log")))
        client = try await bus.connect()
        try await launch(sway, owning: Self.watcherName, watchedFrom: client)
        guard let waybar = try await client.owner(of: Self.watcherName) else {
            throw PeerExited(command: "waybar", status: 0)
        }
        waybarProcess = try await client.processID(of: waybar)
    }

    deinit {
        // SIGKILL: a child of the test runner may inherit a mask that blocks SIGTERM.
        kill(pid_t(waybarProcess), SIGKILL)
        kill(sway)
        Task { [client] in await client.close() }
        try? FileManager.default.removeItem(at: folder)
    }

    /// What waybar's watcher lists: the items registered with it, as `NAME/PATH`.
    public func registeredItems() async throws -> [String] {
        let reply = try await client.call(
            MethodCall(
                destination: Self.watcherName, path: ObjectPath("/StatusNotifierWatcher")!, interface: "org.freedesktop.DBus.Properties",
                member: "Get", arguments: [.string("org.kde.StatusNotifierWatcher"), .string("RegisteredStatusNotifierItems")]))
        return try reply.argument(0, as: Variant.self).get([String].self)
    }

    /// Saves a picture of sway's output (grim, as the compositor's user) at `file`.
    public func screenshot(to file: URL) throws {
        let shot = folder.appendingPathComponent("home/shot.png")
        var environment = environment
        environment["WAYLAND_DISPLAY"] = try waylandDisplay()
        let grim = Self.asNobody(["grim", shot.path], environment: environment)
        try grim.run()
        grim.waitUntilExit()
        guard grim.terminationStatus == 0 else { throw CommandFailed(command: ["grim"], status: grim.terminationStatus, errorOutput: "") }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: file)
        try FileManager.default.copyItem(at: shot, to: file)
    }

    /// What the tray shows at the right end of the bar in a screenshot.
    public struct TrayArea: Sendable {
        /// How many colours: an icon, antialiased, has dozens; the empty bar a few.
        public let colours: Int
        /// A digest of the pixels, to tell one icon from another.
        public let signature: String
        public var showsIcon: Bool { colours > 10 }
    }

    public static func trayArea(in file: URL) throws -> TrayArea {
        let width = 80
        let described = try output(
            of: "convert", file.path, "-crop", "\(width)x\(barHeight)+\(1280 - width)+0", "+repage", "-format", "%k %#", "info:")
        let parts = described.split(separator: " ")
        return TrayArea(colours: Int(parts.first ?? "") ?? 0, signature: String(parts.last ?? ""))
    }

    /// Takes screenshots into `file` until the tray shows what `isWanted` looks for; waybar tells nobody when it has
    /// drawn, so asking the screen again is the one way to know.
    public func waitForTray(in file: URL, within deadline: Duration = .seconds(10), until isWanted: (TrayArea) -> Bool)
        async throws -> TrayArea
    {
        var area = TrayArea(colours: 0, signature: "")
        try await poll(within: deadline) {
            try screenshot(to: file)
            area = try Self.trayArea(in: file)
            return isWanted(area)
        } otherwise: {
            CommandFailed(command: ["grim"], status: 0, errorOutput: "waybar's tray never showed what was awaited; see \(file.path)")
        }
        return area
    }

    /// The socket sway made in its runtime folder (`wayland-1`).
    private func waylandDisplay() throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: environment["XDG_RUNTIME_DIR"]!)
        guard let socket = names.first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }) else {
            throw CommandFailed(command: ["sway"], status: 0, errorOutput: "no Wayland socket in its runtime folder")
        }
        return socket
    }

    /// A process run as nobody, through setpriv (which execs, leaving no parent behind to outlive a kill).
    private static func asNobody(_ command: [String], environment: [String: String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", "--"] + command
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        return process
    }

    private static func emptyFile(_ url: URL) -> URL {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        return url
    }
}
