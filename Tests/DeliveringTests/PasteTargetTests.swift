import Delivering
import Foundation
import NotulaTestSupport
import TestPasses
import Testing

/// A text of `count` characters that starts with a dash and holds accents, Hangul, an emoji, newlines and shell
/// metacharacters that would touch `marker` if anything ran them.
private func hostileText(characters count: Int, marker: String) -> String {
    let pattern = "-n -- ; rm -rf ~ $(touch \(marker)) `touch \(marker)` && touch \(marker) | \"'\\ Grüße aus Köln, café — 한국어 😀\n"
    return String(String(repeating: pattern, count: count / pattern.count + 1).prefix(count))
}

struct ClipboardNotCleared: Error {}
struct NotCopied: Error {}

/// Whether python3 can open a GTK4 window (the text entry of `TerminalsInSway.openTextEntry()`).
func hasGTK4ForPython() -> Bool {
    (try? run("/usr/bin/python3", ["-c", "import gi; gi.require_version('Gtk', '4.0')"]))?.status == 0
}

/// Pastes `text` with `target` and returns once `typed()` reads it, printing how long it took to arrive.
private func pasteAndTime(_ text: String, with target: any TextTarget, into window: String, typed: () -> String) async throws {
    let start = ContinuousClock.now
    do { try await target.deliver(text) } catch {
        print("Pasting \(text.count) characters into \(window) failed; the window holds \(typed().debugDescription)")
        throw error
    }
    let delivered = ContinuousClock.now - start
    try await waitUntilTyped(text, in: typed)
    print(
        "Pasted \(text.count) characters into \(window): delivered in \(delivered), seen in the window after \(ContinuousClock.now - start)"
    )
}

/// The clipboard `previous` set, then a hostile text of `characters` pasted into the terminal that `typed()` reads:
/// it arrives whole, runs nothing, and `clipboard()` reads `previous` again.
private func pasteHostileText(
    characters: Int, with targets: HelperTargets, into window: String, typed: () -> String, clipboard: () throws -> CommandResult
) async throws {
    let previous = "copied before: naïve 한 😀\nsecond line"
    try await targets.clipboard().get().deliver(previous)
    let marker = FileManager.default.temporaryDirectory.appendingPathComponent("notula-ran-\(UUID().uuidString)").path
    let text = hostileText(characters: characters, marker: marker)

    let target = try targets.paste().get()
    try await pasteAndTime(text, with: target, into: window, typed: typed)

    #expect(target.method == .paste)
    #expect(try clipboard().output == previous)
    #expect(!FileManager.default.fileExists(atPath: marker))
}

/// Bytes a clipboard holds as an image: a PNG's signature, a NUL and bytes that are not UTF-8, so that a reader or
/// writer that goes through text would change them.
let imageBytes = Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80] + (0..<4_000).map { UInt8($0 % 251) })

/// A stand-in for the keystroke tool (wtype, xdotool) that copies `copied` with `copyCommand` instead of pressing
/// a key: the user copying something while the paste waits.
private func copierPretendingToPress(_ copyCommand: String, copied: String, in folder: TemporaryFolder) throws -> HelperProgram {
    let path = folder.file("copy-instead-of-pasting")
    let script = "#!/bin/sh\nprintf '%s' '\(copied)' | \(copyCommand)\n"
    _ = FileManager.default.createFile(atPath: path, contents: Data(script.utf8), attributes: [.posixPermissions: 0o755])
    return HelperProgram(path: path)
}

/// Starts `command` (wl-copy, xclip) to copy `file` and returns once `types` lists `type`: not awaited, as the child
/// it forks to serve the clipboard holds what Process waits on.
private func copy(_ file: String, as type: String, with command: [String], environment: [String: String], types: [String])
    async throws
{
    let copier = Process()
    copier.executableURL = URL(fileURLWithPath: command[0])
    copier.arguments = Array(command.dropFirst())
    copier.environment = environment
    copier.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: file))
    copier.standardOutput = FileHandle.nullDevice
    copier.standardError = FileHandle.nullDevice
    try copier.run()
    try await poll(within: .seconds(10)) {
        (try? output(of: types, environment: environment))?.split(separator: "\n").contains { $0 == type } == true
    } otherwise: {
        NotCopied()
    }
}

/// The bytes `command` prints, read through a file: `run` decodes its output as text.
func bytesPrinted(by command: String, environment: [String: String]) throws -> Data {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("notula-clipboard-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: file) }
    try output(of: ["/bin/sh", "-c", "\(command) > '\(file.path)'"], environment: environment)
    return try Data(contentsOf: file)
}

/// Text pasted with wl-copy and one wtype keystroke into a real foot terminal in a headless sway: the terminal's
/// file holds the text, and wl-paste what the clipboard held before.
@Suite(
    .serialized,
    .enabled(if: installed("sway", "swaymsg", "foot", "wtype", "wl-copy", "wl-paste"), "needs sway, foot, wtype and wl-clipboard"),
    .terminalsInSway, .tags(.lightDesktop))
struct WaylandPasteTests {
    let sway: TerminalsInSway
    let targets: HelperTargets

    init() throws {
        sway = try #require(TerminalsInSway.current)
        targets = sway.helperTargets
    }

    private func clipboard() throws -> CommandResult {
        try run("/usr/bin/wl-paste", ["--no-newline"], environment: sway.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 })
    }

    @Test(arguments: [200, 2_000])
    func hostileTextArrivesWholeInATerminalAndThePreviousClipboardIsBack(characters: Int) async throws {
        let terminal = try await sway.openTerminal()
        defer { try? sway.close(terminal) }
        try await pasteHostileText(
            characters: characters, with: targets, into: "foot on sway", typed: terminal.typed, clipboard: clipboard)
    }

    @Test(.enabled(if: hasGTK4ForPython(), "needs python3-gi and gir1.2-gtk-4.0"))
    func aGTKEntryPastesOnCtrlV() async throws {
        let previous = "copied before"
        try await targets.clipboard().get().deliver(previous)
        let entry = try await sway.openTextEntry()
        defer { try? sway.close(entry) }
        let text = "-n Grüße aus Köln, café — 한국어 😀 $(touch x) `x` && | \"'\\"

        try await pasteAndTime(text, with: targets.paste().get(), into: "a GTK4 entry on sway", typed: entry.typed)

        #expect(try clipboard().output == previous)
    }

    @Test func anEmptyClipboardIsEmptyAgainAfterThePaste() async throws {
        try output(of: ["/usr/bin/wl-copy", "--clear"], environment: sway.environment)
        let terminal = try await sway.openTerminal()
        defer { try? sway.close(terminal) }
        let text = "Pasted into an empty clipboard: ß é 한 😀"

        try await targets.paste().get().deliver(text)

        try await waitUntilTyped(text) { terminal.typed() }
        #expect(try clipboard().status != 0)
    }

    @Test func anImageOnTheClipboardIsBackAfterThePasteAndNoFileIsLeft() async throws {
        let environment = sway.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 }
        let image = TemporaryFolder()
        try imageBytes.write(to: URL(fileURLWithPath: image.file("copied.png")))
        try await copy(
            image.file("copied.png"), as: "image/png", with: ["/usr/bin/wl-copy", "--type", "image/png"], environment: environment,
            types: ["/usr/bin/wl-paste", "--list-types"])
        let terminal = try await sway.openTerminal()
        defer { try? sway.close(terminal) }
        let text = "Pasted over an image: ß é 한 😀"

        try await targets.paste().get().deliver(text)

        try await waitUntilTyped(text) { terminal.typed() }
        #expect(try output(of: ["/usr/bin/wl-paste", "--list-types"], environment: environment) == "image/png\n")
        #expect(try bytesPrinted(by: "/usr/bin/wl-paste --type image/png", environment: environment) == imageBytes)
        let runtime = try #require(sway.environment["XDG_RUNTIME_DIR"])
        #expect(!FileManager.default.fileExists(atPath: runtime + "/notula/clipboard"))
    }

    /// Windows that paste while every cooperative thread of notulad waits on something else (here, on them) still
    /// get the text: the compositor's requests are answered from the clipboard's own thread.
    @Test func theClipboardIsServedWhileEveryCooperativeThreadWaits() async throws {
        let text = "served while every thread waits"
        try await targets.clipboard().get().deliver(text)
        let environment = sway.environment
        let readers = ProcessInfo.processInfo.activeProcessorCount

        // `run` blocks its thread until wl-paste ends: as many of them as the pool has threads. Python bounds each
        // (coreutils' timeout waits on a signal the test process blocks).
        let bounded = "import subprocess, sys; sys.stdout.write(subprocess.run(sys.argv[1:], capture_output=True, timeout=10).stdout.decode())"
        let pasted = try await withThrowingTaskGroup(of: CommandResult.self) { group in
            for _ in 0..<readers {
                group.addTask { try run("/usr/bin/python3", ["-c", bounded, "/usr/bin/wl-paste", "--no-newline"], environment: environment) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(pasted.map(\.output) == Array(repeating: text, count: readers), "\(pasted.map(\.status))")
    }

    @Test func aCopyMadeDuringThePasteIsNotOverwritten() async throws {
        try await targets.clipboard().get().deliver("copied before the paste")
        let folder = TemporaryFolder()
        let session = DesktopSession(environment: sway.environment.merging(["XDG_SESSION_TYPE": "wayland"]) { $1 })
        let target = PasteTarget(
            clipboard: try #require(DataControlClipboard(environment: session.environment)),
            keystroke: .wtype(try copierPretendingToPress("/usr/bin/wl-copy", copied: "copied during the paste", in: folder), swaymsg: nil),
            session: session)

        // The user's copy takes the clipboard from the one-time paste, which counts as served.
        try await target.deliver("never pasted")

        #expect(try clipboard().output == "copied during the paste")
        let runtime = try #require(sway.environment["XDG_RUNTIME_DIR"])
        #expect(!FileManager.default.fileExists(atPath: runtime + "/notula/clipboard"))
    }
}

/// Text pasted through notulad's X11 clipboard and one xdotool keystroke into a real xterm on Xvfb, its resources set so that
/// Ctrl+Shift+V pastes the clipboard as in other terminals (xterm's own default pastes only the primary selection,
/// with Shift+Insert): the terminal's file holds the text, and `xclip -o` what the clipboard held before.
@Suite(
    .serialized,
    .enabled(if: installed("Xvfb", "xterm", "xdotool", "xclip"), "needs Xvfb, xterm, xdotool and xclip"),
    .terminalsUnderXvfb, .tags(.lightDesktop))
struct X11PasteTests {
    let xvfb: TerminalsUnderXvfb
    let targets: HelperTargets
    /// What an xterm user needs in `~/.Xresources` for Ctrl+Shift+V to paste the clipboard.
    private let pastingXTerm = ["XTerm*VT100.translations: #override Shift Ctrl <Key>V: insert-selection(CLIPBOARD)"]

    init() throws {
        xvfb = try #require(TerminalsUnderXvfb.current)
        targets = xvfb.helperTargets
    }

    private func clipboard() throws -> CommandResult {
        try run(
            "/usr/bin/xclip", ["-o", "-selection", "clipboard"], environment: xvfb.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 })
    }

    @Test(arguments: [200, 2_000])
    func hostileTextArrivesWholeInATerminalAndThePreviousClipboardIsBack(characters: Int) async throws {
        let terminal = try await xvfb.openTerminal(resources: pastingXTerm)
        try await pasteHostileText(
            characters: characters, with: targets, into: "xterm on Xvfb", typed: terminal.typed, clipboard: clipboard)
    }

    @Test(.enabled(if: hasGTK4ForPython(), "needs python3-gi and gir1.2-gtk-4.0"))
    func aGTKEntryPastesOnCtrlV() async throws {
        let previous = "copied before"
        try await targets.clipboard().get().deliver(previous)
        let entry = try await xvfb.openTextEntry()
        let text = "-n Grüße aus Köln, café — 한국어 😀 $(touch x) `x` && | \"'\\"

        try await pasteAndTime(text, with: targets.paste().get(), into: "a GTK4 entry on Xvfb", typed: entry.typed)

        #expect(try clipboard().output == previous)
    }

    /// Leaves the clipboard with no owner, as xclip has no `--clear`: an empty text copied for one paste, and
    /// pasted by the test until the copier is gone.
    private func clearClipboard() async throws {
        let copier = Process()
        copier.executableURL = URL(fileURLWithPath: "/usr/bin/xclip")
        copier.arguments = ["-selection", "clipboard", "-loops", "1", "-in", "/dev/null"]
        copier.environment = xvfb.environment
        copier.standardOutput = FileHandle.nullDevice
        copier.standardError = FileHandle.nullDevice
        // Not awaited: Process reaps it only once the child it forks to serve the paste is gone.
        try copier.run()
        try await poll(within: .seconds(10)) {
            try clipboard().status != 0
        } otherwise: {
            ClipboardNotCleared()
        }
    }

    @Test func anEmptyClipboardIsEmptyAgainAfterThePaste() async throws {
        try await clearClipboard()
        let terminal = try await xvfb.openTerminal(resources: pastingXTerm)
        let text = "Pasted into an empty clipboard: ß é 한 😀"

        try await targets.paste().get().deliver(text)

        try await waitUntilTyped(text) { terminal.typed() }
        #expect(try clipboard().status != 0)
    }

    @Test func anXTermThatDoesNotPasteOnCtrlShiftVFailsTheDeliveryAndSaysSo() async throws {
        // xterm's defaults: Ctrl+Shift+V is a control character, not a paste.
        let terminal = try await xvfb.openTerminal()
        let target = PasteTarget(
            clipboard: try #require(X11Clipboard(environment: xvfb.environment)),
            keystroke: .xdotool(HelperProgram(path: "/usr/bin/xdotool")), session: DesktopSession(environment: xvfb.environment),
            pasteTime: .seconds(1))

        let error = await #expect(throws: DeliveryError.self) { try await target.deliver("never pasted") }

        #expect(error?.message.hasPrefix("The focused window did not paste on Ctrl+Shift+V") == true)
        #expect(!terminal.typed().contains("never pasted"))
    }

    /// notulad's X11 clipboard and xdotool with a runtime folder of the test's, where the clipboard is kept during a paste.
    private func pasteTarget(runtime: TemporaryFolder, xdotool: HelperProgram = HelperProgram(path: "/usr/bin/xdotool")) throws -> PasteTarget {
        let session = DesktopSession(
            environment: xvfb.environment.merging(["XDG_SESSION_TYPE": "x11", "XDG_RUNTIME_DIR": runtime.path]) { $1 })
        return PasteTarget(
            clipboard: try #require(X11Clipboard(environment: session.environment)),
            keystroke: .xdotool(xdotool), session: session)
    }

    @Test func anImageOnTheClipboardIsBackAfterThePasteAndNoFileIsLeft() async throws {
        let environment = xvfb.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 }
        let runtime = TemporaryFolder()
        try imageBytes.write(to: URL(fileURLWithPath: runtime.file("copied.png")))
        try await copy(
            runtime.file("copied.png"), as: "image/png", with: ["/usr/bin/xclip", "-selection", "clipboard", "-target", "image/png", "-in"],
            environment: environment, types: ["/usr/bin/xclip", "-selection", "clipboard", "-out", "-target", "TARGETS"])
        let terminal = try await xvfb.openTerminal(resources: pastingXTerm)
        let text = "Pasted over an image: ß é 한 😀"

        try await pasteTarget(runtime: runtime).deliver(text)

        try await waitUntilTyped(text) { terminal.typed() }
        let targets = try output(of: ["/usr/bin/xclip", "-selection", "clipboard", "-out", "-target", "TARGETS"], environment: environment)
        #expect(targets.split(separator: "\n").contains("image/png"))
        #expect(try bytesPrinted(by: "/usr/bin/xclip -selection clipboard -out -target image/png", environment: environment) == imageBytes)
        #expect(!FileManager.default.fileExists(atPath: runtime.file("notula/clipboard")))
    }

    @Test func aCopyMadeDuringThePasteIsNotOverwritten() async throws {
        try await targets.clipboard().get().deliver("copied before the paste")
        let runtime = TemporaryFolder()
        let copier = try copierPretendingToPress("/usr/bin/xclip -selection clipboard -in", copied: "copied during the paste", in: runtime)

        try await pasteTarget(runtime: runtime, xdotool: copier).deliver("never pasted")

        #expect(try clipboard().output == "copied during the paste")
        #expect(!FileManager.default.fileExists(atPath: runtime.file("notula/clipboard")))
    }
}

/// Where paste is offered, and what it says where it is not.
@Suite struct PasteOfferTests {
    /// A folder holding every helper program (empty scripts: only their presence counts here).
    private let allPrograms = TemporaryFolder()

    init() {
        for name in ["wtype", "xdotool"] {
            _ = FileManager.default.createFile(
                atPath: allPrograms.file(name), contents: Data("#!/bin/sh\n".utf8), attributes: [.posixPermissions: 0o755])
        }
    }

    private func targets(_ environment: [String: String], searchPath: String? = nil) -> HelperTargets {
        HelperTargets(session: DesktopSession(environment: environment), searchPath: searchPath ?? allPrograms.path)
    }

    @Test func swayAndX11ArePastedInto() throws {
        let sway = targets([
            "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "sway", "WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": "/run/user/1000",
        ])
        let x11 = targets(["XDG_SESSION_TYPE": "x11", "DISPLAY": ":0"])

        #expect(try sway.paste().get().method == .paste)
        #expect(try x11.paste().get().method == .paste)
    }

    @Test func gnomeOnWaylandIsNotAndKDEOnlyThroughItsPortal() throws {
        let gnome = targets(["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "GNOME", "WAYLAND_DISPLAY": "wayland-0"])
        let kde = targets(["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": "wayland-0"])

        #expect(throws: DeliveryError("GNOME on Wayland lets no program set the clipboard without its portal.")) {
            try gnome.paste().get()
        }
        #expect(
            throws: DeliveryError("KDE has no virtual keyboard for Notula to press Ctrl+V with, and its RemoteDesktop portal is missing.")
        ) { try kde.paste().get() }
    }

    @Test func aMissingProgramNamesTheDebianPackageToInstall() throws {
        let onlyCopy = TemporaryFolder()
        let sway = targets(
            [
                "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "sway", "WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": "/run/user/1000",
            ], searchPath: onlyCopy.path)
        let x11 = targets(["DISPLAY": ":0"], searchPath: onlyCopy.path)

        // The clipboard needs no program: the keystroke does.
        #expect(throws: DeliveryError("wtype is not installed: install the package wtype (sudo apt install wtype).")) {
            try sway.paste().get()
        }
        #expect(throws: DeliveryError("xdotool is not installed: install the package xdotool (sudo apt install xdotool).")) {
            try x11.paste().get()
        }
    }
}
