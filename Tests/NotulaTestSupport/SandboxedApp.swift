import Foundation

/// A program run as a Flatpak app runs: under bubblewrap, in a root of its own whose `/.flatpak-info` names the app,
/// which is where xdg-desktop-portal (and notulad) read a caller's app id: `/proc/PID/root/.flatpak-info`. The host's
/// /usr, /etc and /tmp (the private buses' sockets) are bound in, so it reaches the test's bus as the app would.
public struct SandboxedApp: Sendable {
    public let appID: String
    private let info: URL

    /// Why no sandbox can be made here (no bwrap, or no mount namespace), or nil when one can.
    public static let unavailable: String? = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/bwrap") else { return "bwrap is not installed (make test-deps)" }
        guard let probe = try? SandboxedApp("org.notula.Probe"), let result = try? probe.run(["/usr/bin/true"]), result.status == 0 else {
            return "bwrap cannot make a mount namespace here"
        }
        return nil
    }()

    public init(_ appID: String) throws {
        self.appID = appID
        info = FileManager.default.temporaryDirectory.appendingPathComponent("flatpak-info-\(UUID().uuidString)")
        try Data("[Application]\nname=\(appID)\nruntime=runtime/org.freedesktop.Platform/x86_64/24.08\n".utf8).write(to: info)
    }

    /// Runs `arguments` in the sandbox to their end.
    public func run(_ arguments: [String], environment: [String: String]? = nil) throws -> CommandResult {
        let root = [
            "--tmpfs", "/", "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
            "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin", "--ro-bind", "/etc", "/etc", "--bind", "/tmp", "/tmp",
            "--proc", "/proc", "--dev", "/dev", "--ro-bind", info.path, "/.flatpak-info",
        ]
        return try NotulaTestSupport.run("/usr/bin/bwrap", root + arguments, environment: environment)
    }

    /// `gdbus call` from inside the sandbox to `org.notula.Notula1` on `bus`; `arguments` in GVariant text.
    public func call(on bus: PrivateBus, _ path: String, _ method: String, _ arguments: [String] = []) throws -> CommandResult {
        try run(
            ["/usr/bin/gdbus", "call", "--address", bus.address, "--dest", "org.notula.Notula1", "--object-path", path, "--method", method]
                + arguments)
    }
}
