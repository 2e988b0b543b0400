import DBus
import Foundation

/// What the Shell said when it did not run a script or enable an extension.
public struct ShellRefused: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}

/// A real GNOME Shell of the tests' (43 on this machine, 48 in its root), its unsafe mode on: where an extension is
/// installed and enabled as its user does, and what the Shell shows is read and pictured.
public protocol GnomeShell: Sendable {
    /// The Shell's major version, which picks the extension's build (43–44: scripts; 45 and later: modules).
    var shellMajor: Int { get }
    /// The session bus of the Shell.
    var busAddress: String { get }
    /// The session user's home, where the Shell may write; the same path on this machine.
    var home: URL { get }
    /// The Shell's own log file.
    var shellLogFile: URL { get }
    func connect() async throws -> Bus
    /// Runs `command` as the session's user, in the session's environment.
    func runAsUser(_ command: [String]) throws -> CommandResult
}

extension GnomeShell {
    /// Installs the extension in `zip` as its user does (`gnome-extensions install`); nothing when the Shell knows it
    /// already (the host is shared). The Shell reads its extensions folder only when the session starts, so it is
    /// then asked to load the new folder as it does at that time.
    public func installExtension(_ uuid: String, from zip: URL) async throws {
        guard try await extensionInfo(uuid).isEmpty else { return }
        // Where the user (and, for Shell 48, its root) can read it.
        let copy = home.appendingPathComponent(zip.lastPathComponent)
        try? FileManager.default.removeItem(at: copy)
        try FileManager.default.copyItem(at: zip, to: copy)
        defer { try? FileManager.default.removeItem(at: copy) }
        chmod(copy.path, 0o644)
        let install = try runAsUser(["/usr/bin/gnome-extensions", "install", "--force", copy.path])
        guard install.status == 0 else {
            throw CommandFailed(
                command: ["gnome-extensions", "install", zip.path], status: install.status, errorOutput: install.errorOutput)
        }
        let folder = home.appendingPathComponent(".local/share/gnome-shell/extensions/\(uuid)")
        // 2 is ExtensionType.PER_USER, which 45 and later keep in a module Eval cannot import.
        _ = try await evaluateOrThrow(
            """
            Main.extensionManager.loadExtension(Main.extensionManager.createExtensionObject(\(javaScriptString(uuid)),
                imports.gi.Gio.File.new_for_path(\(javaScriptString(folder.path))), 2)); true
            """)
        var info: [String: Value] = [:]
        try await poll(within: .seconds(10)) {
            info = try await extensionInfo(uuid)
            return !info.isEmpty
        } otherwise: {
            ShellRefused(description: "the Shell never loaded \(uuid) from \(folder.path)")
        }
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
                destination: shellName, path: shellPath, interface: "org.gnome.Shell", member: "Eval",
                arguments: [.string(script)]))
        guard try reply.argument(0, as: Bool.self) else { throw ShellRefused(description: try reply.argument(1, as: String.self)) }
        return try reply.argument(1, as: String.self)
    }

    /// Saves a picture of the whole screen at `file`, taken by the Shell (`org.gnome.Shell.Screenshot`, open to the
    /// test in unsafe mode) into its user's home first, where it may write.
    public func screenshot(to file: URL) async throws {
        let shot = home.appendingPathComponent("screenshot-\(UUID().uuidString).png")
        let client = try await connect()
        defer { Task { await client.close() } }
        let reply = try await client.call(
            MethodCall(
                destination: shellName, path: ObjectPath("/org/gnome/Shell/Screenshot")!, interface: "org.gnome.Shell.Screenshot",
                member: "Screenshot", arguments: [.boolean(false), .boolean(false), .string(shot.path)]))
        guard try reply.argument(0, as: Bool.self) else { throw ShellRefused(description: "Screenshot answered false") }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: file)
        try FileManager.default.moveItem(at: shot, to: file)
    }

    /// The text on the Shell's clipboard (what Ctrl+V would paste), asked of the Shell itself; nil when it holds none.
    /// St.Clipboard answers in a callback, which leaves it where the next Eval reads it.
    public func clipboardText() async throws -> String? {
        _ = try await evaluateOrThrow(
            "global._notulaClipboard = undefined; imports.gi.St.Clipboard.get_default()"
                + ".get_text(imports.gi.St.ClipboardType.CLIPBOARD, (_, text) => { global._notulaClipboard = text ?? null; }); true")
        var answer = ""
        try await poll(within: .seconds(10)) {
            answer = try await evaluateOrThrow(
                "global._notulaClipboard === undefined ? 'waiting' : JSON.stringify(global._notulaClipboard)")
            return answer != "\"waiting\""
        } otherwise: {
            ShellRefused(description: "the Shell never read its clipboard")
        }
        // Eval answers JSON: the JSON of the JSON string, or of null.
        guard let json = try JSONSerialization.jsonObject(with: Data(answer.utf8), options: .fragmentsAllowed) as? String else {
            return nil
        }
        return try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) as? String
    }

    /// What the Shell has logged so far (its errors, and those of its extensions, with their stacks).
    public var shellLog: String { (try? String(contentsOf: shellLogFile, encoding: .utf8)) ?? "" }

    private func extensionInfo(_ uuid: String) async throws -> [String: Value] {
        let client = try await connect()
        defer { Task { await client.close() } }
        let reply = try await client.call(extensionsCall("GetExtensionInfo", uuid))
        return try reply.argument(0, as: [String: Variant].self).mapValues(\.value)
    }

    private func extensionsCall(_ member: MemberName, _ uuid: String) -> MethodCall {
        MethodCall(
            destination: shellName, path: shellPath, interface: "org.gnome.Shell.Extensions", member: member,
            arguments: [.string(uuid)])
    }
}

/// `ExtensionState` of the Shell's extensionUtils.js (43's names; 45 and later keep the numbers), as
/// `GetExtensionInfo` sends it (a double).
private enum ExtensionState {
    static let enabled = 1.0
    static let disabled = 2.0
    static let error = 3.0
    static let outOfDate = 4.0
}

private let shellName: BusName = "org.gnome.Shell"
private let shellPath = ObjectPath("/org/gnome/Shell")!

/// `text` as a JavaScript string literal.
public func javaScriptString(_ text: String) -> String {
    String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
}
