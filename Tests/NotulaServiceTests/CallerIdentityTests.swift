import Foundation
import Testing

@testable import NotulaService

/// Naming a caller as xdg-desktop-portal does: the Flatpak or Snap app id of a sandboxed process, else its executable;
/// doubt counts as sandboxed.
@Suite("Who called")
struct CallerNamesTests {
    @Test func aFlatpakInfoNamesItsApplication() {
        let info = "[Application]\nname=org.example.App\nruntime=runtime/org.gnome.Platform/x86_64/47\n\n[Instance]\nname=other\n"
        #expect(CallerNames.flatpakAppID(info: info) == "org.example.App")
        #expect(CallerNames.flatpakAppID(info: "[Application]\n name = org.example.Spaced \n") == "org.example.Spaced")
    }

    @Test func aRuntimeRunNamesItsRuntime() {
        let info = "[Application]\nname=org.example.App\n[Runtime]\nname=org.gnome.Sdk\n"
        #expect(CallerNames.flatpakAppID(info: info) == "org.gnome.Sdk")
    }

    @Test func theNameOfAnotherGroupOrAnInvalidIDIsNoAppID() {
        #expect(CallerNames.flatpakAppID(info: "[Instance]\nname=org.example.App\n") == nil)
        #expect(CallerNames.flatpakAppID(info: "name=org.example.App\n") == nil, "outside any group")
        #expect(CallerNames.flatpakAppID(info: "[Application]\nname=org.example\n") == nil, "two elements")
        #expect(CallerNames.flatpakAppID(info: "[Application]\nname=org.exa mple.App\n") == nil)
        #expect(CallerNames.flatpakAppID(info: "[Application]\nname=org.9example.App\n") == nil, "an element starts with a digit")
        #expect(CallerNames.flatpakAppID(info: "[Application]\nname=org.ex-ample.App\n") == nil, "- before the last element")
        #expect(CallerNames.flatpakAppID(info: "[Application]\nname=org.example.\u{1b}[2J\n") == nil)
        #expect(CallerNames.flatpakAppID(info: "[Application]\nname=" + String(repeating: "a.", count: 128) + "b\n") == nil)
        #expect(CallerNames.flatpakAppID(info: "") == nil)
    }

    @Test func theLastElementMayHoldADash() {
        #expect(CallerNames.flatpakAppID(info: "[Application]\nname=org.example.My-App\n") == "org.example.My-App")
    }

    @Test func aSnapLabelNamesItsSnap() {
        #expect(CallerNames.isSnapLabel("snap.firefox.firefox (enforce)\n"))
        #expect(CallerNames.snapName(label: "snap.firefox.firefox (enforce)\n") == "firefox")
        #expect(CallerNames.snapName(label: "snap.my-app_beta.daemon (complain)") == "my-app_beta", "an instance key")
        #expect(CallerNames.snapName(label: "snap.chromium.hook.configure (enforce)") == "chromium")
        #expect(CallerNames.snapName(label: "snap.spotify.spotify\0") == "spotify")
    }

    @Test func otherLabelsAreNoSnap() {
        #expect(!CallerNames.isSnapLabel("unconfined\n"))
        #expect(!CallerNames.isSnapLabel("/usr/bin/man (enforce)"))
        #expect(!CallerNames.isSnapLabel(""))
    }

    @Test func aMalformedSnapLabelNamesNoSnap() {
        #expect(CallerNames.snapName(label: "snap.firefox (enforce)") == nil, "no app")
        #expect(CallerNames.snapName(label: "snap.Firefox.firefox (enforce)") == nil)
        #expect(CallerNames.snapName(label: "snap..app (enforce)") == nil)
        #expect(CallerNames.snapName(label: "snap.a_b_c.app (enforce)") == nil)
        #expect(CallerNames.snapName(label: "snap.app_TOOLONGKEYX.app") == nil)
    }

    @Test func anExecutableIsNamedByItsLastElement() {
        #expect(CallerNames.program(executable: "/usr/bin/python3.13") == "python3.13")
        #expect(CallerNames.program(executable: "/opt/app/bin/recorder (deleted)") == "recorder", "replaced by an upgrade")
        #expect(CallerNames.program(executable: "/") == nil)
        #expect(CallerNames.program(comm: "pw-record\n") == "pw-record")
    }

    @Test func aNameShowsNoControlCharactersAndIsBounded() {
        #expect(CallerNames.program(executable: "/tmp/evil\u{1b}[31m\nname\u{202e}") == "evil[31mname")
        #expect(CallerNames.shown(String(repeating: "x", count: 500))?.count == CallerNames.mostProgramCharacters)
        #expect(CallerNames.shown("\u{7}\u{1b}") == nil)
    }
}

/// The files of `/proc` read for a real process: a plain one, one in a Flatpak-like sandbox (bubblewrap with a
/// `.flatpak-info` at its root, as `flatpak run` makes it), one whose info notulad cannot read, and one that ended.
@Suite("Who called, read from /proc")
struct ProcessFilesTests {
    @Test func aPlainProcessIsNamedByItsExecutable() throws {
        let process = try RunningProcess(["sleep", "60"])
        defer { process.stop() }
        let files = ProcessFiles(process.processID)
        #expect(files.sandbox() == .none)
        #expect(files.executableName() == "sleep")
    }

    @Test func aFlatpakSandboxIsNamedByItsAppID() throws {
        let info = try InfoFile("[Application]\nname=org.example.Listener\n")
        let process = try RunningProcess.sandboxed(["--ro-bind", info.path, "/.flatpak-info"])
        defer { process.stop() }
        #expect(ProcessFiles(process.processID).sandbox() == .flatpak("org.example.Listener"))
    }

    @Test func aFlatpakInfoThatCannotBeReadStillMeansSandboxed() throws {
        let folder = try RunningProcess.sandboxed(["--dir", "/.flatpak-info"])
        defer { folder.stop() }
        #expect(ProcessFiles(folder.processID).sandbox() == .flatpak(nil), "a folder, not a file")
        let link = try RunningProcess.sandboxed(["--symlink", "/usr/bin/sleep", "/.flatpak-info"])
        defer { link.stop() }
        #expect(ProcessFiles(link.processID).sandbox() == .flatpak(nil), "a link")
        let nameless = try InfoFile("[Application]\nruntime=org.gnome.Platform\n")
        let unnamed = try RunningProcess.sandboxed(["--ro-bind", nameless.path, "/.flatpak-info"])
        defer { unnamed.stop() }
        #expect(ProcessFiles(unnamed.processID).sandbox() == .flatpak(nil), "no name")
    }

    @Test func aProcessThatEndedIsGone() throws {
        let process = try RunningProcess(["true"])
        process.stop()
        #expect(ProcessFiles(process.processID).sandbox() == .gone)
    }
}

/// A `.flatpak-info` to bind into a sandbox, removed with the value.
private final class InfoFile {
    let path: String

    init(_ text: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("flatpak-info-\(UUID().uuidString)").path
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A child process whose id is known once it runs the program asked for.
private final class RunningProcess: Sendable {
    private let process: Process
    let processID: UInt32

    /// `arguments` started by a shell that prints its id, then becomes the program.
    init(_ arguments: [String], through prefix: [String] = []) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = prefix + ["sh", "-c", "echo $$; exec \"$@\"", "sh"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line: [UInt8] = []
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") { line.append(byte) }
        guard let processID = UInt32(String(decoding: line, as: UTF8.self)) else {
            process.terminate()
            throw CocoaError(.executableLoad)
        }
        // The shell's exec is awaited: the program runs once the process's executable is the program's (or it ended).
        while let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(processID)/exe"),
            !executable.hasSuffix("/\(arguments[0])")
        {}
        self.process = process
        self.processID = processID
    }

    /// `sleep 60` in bubblewrap with a root of its own, as `flatpak run` makes one, and `binds` added to it.
    static func sandboxed(_ binds: [String]) throws -> RunningProcess {
        let root = [
            "bwrap", "--tmpfs", "/", "--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib",
            "--symlink", "usr/lib64", "/lib64", "--proc", "/proc", "--dev", "/dev",
        ]
        return try RunningProcess(["sleep", "60"], through: root + binds)
    }

    /// Ends the program (bubblewrap ends with it) and waits, so its id names no process.
    func stop() {
        // SIGKILL: a test runner may hand its children SIGTERM blocked.
        if process.isRunning { kill(pid_t(processID), SIGKILL) }
        process.waitUntilExit()
    }
}
