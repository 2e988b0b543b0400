import DBus
import Foundation

/// What the Shell said when it did not run a script or enable an extension.
public struct ShellRefused: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

extension GnomeShellHost {
    /// Installs the extension in `zip` as its user does (`gnome-extensions install`); nothing when the Shell knows it
    /// already (the host is shared). Shell 43 reads its extensions folder only when the session starts, so the Shell
    /// then loads the new folder as it does at that time.
    public func installExtension(_ uuid: String, from zip: URL) async throws {
        guard try await extensionInfo(uuid).isEmpty else { return }
        let install = try session.runAsUser(["/usr/bin/gnome-extensions", "install", "--force", zip.path])
        guard install.status == 0 else {
            throw CommandFailed(
                command: ["gnome-extensions", "install", zip.path], status: install.status, errorOutput: install.errorOutput)
        }
        let folder = session.home.appendingPathComponent(".local/share/gnome-shell/extensions/\(uuid)")
        _ = try await evaluateOrThrow(
            """
            Main.extensionManager.loadExtension(Main.extensionManager.createExtensionObject(\(javaScriptString(uuid)),
                imports.gi.Gio.File.new_for_path(\(javaScriptString(folder.path))), imports.misc.extensionUtils.ExtensionType.PER_USER))
            """)
    }

    /// Enables the installed extension through `org.gnome.Shell.Extensions`, as `gnome-extensions enable` does.
    /// - Throws: `ShellRefused` with the extension's error when it did not enable.
    public func enableExtension(_ uuid: String) async throws {
        try await switchExtension(uuid, with: "EnableExtension", until: ExtensionState.enabled)
    }

    /// Disables the extension through `org.gnome.Shell.Extensions`, as the Extensions app does (and Shell 43 does to
    /// every extension of the user's while the screen is locked).
    public func disableExtension(_ uuid: String) async throws {
        try await switchExtension(uuid, with: "DisableExtension", until: ExtensionState.disabled)
    }

    private func switchExtension(_ uuid: String, with member: MemberName, until state: Double) async throws {
        let client = try await connect()
        defer { Task { await client.close() } }
        let switched = try await client.call(extensionsCall(member, uuid))
        guard try switched.argument(0, as: Bool.self) else { throw ShellRefused(description: "\(member)(\(uuid)) answered false") }
        var info: [String: Value] = [:]
        try await poll(within: .seconds(10)) {
            info = try await extensionInfo(uuid)
            return [state, ExtensionState.error, ExtensionState.outOfDate].contains { info["state"] == .double($0) }
        } otherwise: {
            ShellRefused(description: "\(member)(\(uuid)) never took effect: \(info)")
        }
        guard info["state"] == .double(state) else { throw ShellRefused(description: "\(uuid) failed: \(info)") }
    }

    /// Runs JavaScript in the Shell (unsafe mode, from the test extension) and returns its result as JSON.
    /// - Throws: `ShellRefused` with the script's exception.
    public func evaluateOrThrow(_ script: String) async throws -> String {
        let client = try await connect()
        defer { Task { await client.close() } }
        let reply = try await client.call(
            MethodCall(
                destination: Self.shellName, path: Self.shellPath, interface: "org.gnome.Shell", member: "Eval",
                arguments: [.string(script)]))
        guard try reply.argument(0, as: Bool.self) else { throw ShellRefused(description: try reply.argument(1, as: String.self)) }
        return try reply.argument(1, as: String.self)
    }

    /// Saves a picture of the whole screen at `file`, taken by the Shell (`org.gnome.Shell.Screenshot`, open to the
    /// test in unsafe mode) into its user's home first, where it may write.
    public func screenshot(to file: URL) async throws {
        let shot = session.home.appendingPathComponent("screenshot-\(UUID().uuidString).png")
        let client = try await connect()
        defer { Task { await client.close() } }
        let reply = try await client.call(
            MethodCall(
                destination: Self.shellName, path: ObjectPath("/org/gnome/Shell/Screenshot")!, interface: "org.gnome.Shell.Screenshot",
                member: "Screenshot", arguments: [.boolean(false), .boolean(false), .string(shot.path)]))
        guard try reply.argument(0, as: Bool.self) else { throw ShellRefused(description: "Screenshot answered false") }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: file)
        try FileManager.default.moveItem(at: shot, to: file)
    }

    /// The text on the Shell's clipboard, what a paste into any window gets; St.Clipboard answers in a callback,
    /// which leaves it where the next Eval reads it.
    public func clipboardText() async throws -> String {
        _ = try await evaluateOrThrow(
            """
            globalThis.notulaTestClipboard = undefined;
            imports.gi.St.Clipboard.get_default().get_text(imports.gi.St.ClipboardType.CLIPBOARD,
                (_clipboard, text) => { globalThis.notulaTestClipboard = text ?? ''; });
            """)
        var text: String?
        try await poll(within: .seconds(5)) {
            // Eval answers "" (no JSON) while the value is undefined.
            text = try? JSONDecoder().decode(String.self, from: Data(await evaluateOrThrow("globalThis.notulaTestClipboard").utf8))
            return text != nil
        } otherwise: {
            ShellRefused(description: "the clipboard never answered")
        }
        return text!
    }

    /// What the Shell has logged so far (its errors, and those of its extensions, with their stacks).
    public var shellLog: String {
        (try? String(contentsOf: session.logFolder.appendingPathComponent("shell.log"), encoding: .utf8)) ?? ""
    }

    private static let shellPath = ObjectPath("/org/gnome/Shell")!

    /// `ExtensionState` of Shell 43's extensionUtils.js, as `GetExtensionInfo` sends it (a double).
    private enum ExtensionState {
        static let enabled = 1.0
        static let disabled = 2.0
        static let error = 3.0
        static let outOfDate = 4.0
    }

    private func extensionInfo(_ uuid: String) async throws -> [String: Value] {
        let client = try await connect()
        defer { Task { await client.close() } }
        let reply = try await client.call(extensionsCall("GetExtensionInfo", uuid))
        return try reply.argument(0, as: [String: Variant].self).mapValues(\.value)
    }

    private func extensionsCall(_ member: MemberName, _ uuid: String) -> MethodCall {
        MethodCall(
            destination: Self.shellName, path: Self.shellPath, interface: "org.gnome.Shell.Extensions", member: member,
            arguments: [.string(uuid)])
    }
}

/// `text` as a JavaScript string literal.
public func javaScriptString(_ text: String) -> String {
    String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
}
