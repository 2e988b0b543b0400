import DBus
import Foundation

/// Notula's GNOME Shell extension.
public let notulaExtensionUUID = "notula@notula.org"

extension GnomeShell {
    /// Builds Notula's extension for this Shell (`make gnome-extension`), installs it as a user does and enables it.
    /// - Throws: `ShellRefused` when the Shell is not of the version it says, or did not take the extension.
    public func installNotulaExtension() async throws {
        let client = try await connect()
        defer { Task { await client.close() } }
        let version = try await client.call(
            MethodCall(
                destination: "org.gnome.Shell", path: ObjectPath("/org/gnome/Shell")!, interface: "org.freedesktop.DBus.Properties",
                member: "Get", arguments: [.string("org.gnome.Shell"), .string("ShellVersion")])
        ).argument(0, as: Variant.self).value
        guard case .string(let shellVersion) = version, shellVersion.hasPrefix("\(shellMajor).") else {
            throw ShellRefused(description: "the Shell says it is \(version), not \(shellMajor)")
        }
        let build = FileManager.default.temporaryDirectory.appendingPathComponent("notula-extension-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: build) }
        let zip = build.appendingPathComponent("\(notulaExtensionUUID).shell-extension.zip")
        try output(
            of: "make", "-s", "-C", packageRoot.path, "gnome-extension", "EXTENSION_BUILD=\(build.path)/tree", "EXTENSION_ZIP=\(zip.path)",
            "SHELL_MAJOR=\(shellMajor)")
        try await installExtension(notulaExtensionUUID, from: zip)
        try await enableExtension(notulaExtensionUUID)
    }
}
