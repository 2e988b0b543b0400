import DBus
import Foundation

/// Flatpak's bus filter, the real `xdg-dbus-proxy`, in front of a private bus: a client connected through it is
/// filtered as a sandboxed app is, with the rules Flatpak passes for its `--talk-name` and `--own-name` permissions.
/// Ended when the value goes.
public final class FlatpakBusProxy {
    /// The filtered bus, as the app inside the sandbox sees it.
    public let address: String
    private let process: Process
    private let folder: TemporaryFolder
    /// The proxy's `--fd`: it stops once this end closes, so it is kept as long as the value.
    private let ready = Pipe()

    /// Starts the proxy and returns once it says it is ready.
    /// - Parameters:
    ///   - talking: the names the app may call (`--talk-name`), `.*` ending a prefix, as Flatpak writes them.
    ///   - owning: the names the app may own (`--own-name`), which it may also call.
    public init(in bus: PrivateBus, talking: [String], owning: [String] = []) throws {
        folder = TemporaryFolder()
        let socket = folder.file("bus")
        address = "unix:path=" + socket
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xdg-dbus-proxy")
        // What Flatpak gives every app besides (its own id, the portals), then the permissions under test.
        process.arguments =
            [
                "--fd=1", bus.address, socket, "--filter", "--own=org.example.Sandboxed", "--own=org.example.Sandboxed.*",
                "--call=org.freedesktop.portal.*=*", "--broadcast=org.freedesktop.portal.*=@/org/freedesktop/portal/*",
            ] + talking.map { "--talk=" + $0 } + owning.map { "--own=" + $0 }
        process.standardOutput = ready
        try process.run()
        // --fd: a byte once the socket listens; end of file if the proxy gave up first.
        guard let byte = try ready.fileHandleForReading.read(upToCount: 1), !byte.isEmpty else {
            throw ProxyNotReady(status: process.isRunning ? nil : process.terminationStatus)
        }
    }

    /// A connection of the sandboxed app's, through the filter.
    public func connect() async throws -> Bus { try await Bus.connect(address: address) }

    deinit { kill(process) }
}

public struct ProxyNotReady: Error, CustomStringConvertible {
    let status: Int32?
    public var description: String { "xdg-dbus-proxy did not get ready (exit status \(status.map(String.init) ?? "none"))" }
}
