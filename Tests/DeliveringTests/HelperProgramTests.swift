import Delivering
import Foundation
import NotulaTestSupport
import Testing

/// Helper programs found by absolute path, and what a delivery says when one fails or hangs.
@Suite struct HelperProgramTests {
    @Test func aProgramIsFoundByAbsolutePathAndRelativeFoldersAreIgnored() {
        #expect(HelperProgram.find("sh", on: "bin:/nonexistent:/usr/bin:/bin")?.path == "/usr/bin/sh")
        #expect(HelperProgram.find("sh", on: "bin:.") == nil)
        #expect(HelperProgram.find("notula-no-such-program", on: "/usr/bin:/bin") == nil)
    }

    @Test func aHelperThatHangsIsKilledAndReported() async throws {
        let folder = TemporaryFolder()
        let processIDFile = folder.file("pid")
        let hanging = try script(in: folder, "echo $$ > \(processIDFile); exec sleep 1000")
        let target = VirtualKeyboardTarget(
            wtype: hanging, session: DesktopSession(environment: ["WAYLAND_DISPLAY": "wayland-9"]), startUp: .seconds(1))

        let error = await #expect(throws: DeliveryError.self) { try await target.deliver("hello") }

        #expect(error?.message.hasPrefix("wtype did not finish within") == true)
        let processID = try #require(
            pid_t(String(contentsOfFile: processIDFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(processID, 0) == -1 && errno == ESRCH)
    }

    @Test func aCancelledDeliveryKillsItsHelper() async throws {
        let folder = TemporaryFolder()
        let processIDFile = folder.file("pid")
        let hanging = try script(in: folder, "echo $$ > \(processIDFile).new; mv \(processIDFile).new \(processIDFile); exec sleep 1000")
        // Bounds far past a loaded machine's start of a shell: only the cancel may end this delivery.
        let target = VirtualKeyboardTarget(wtype: hanging, session: DesktopSession(environment: [:]), startUp: .seconds(120))
        let delivery = Task { try await target.deliver("hello") }
        try await poll(within: .seconds(60)) {
            FileManager.default.fileExists(atPath: processIDFile)
        } otherwise: {
            TextNotArrived(expected: "a process ID", arrived: "")
        }

        delivery.cancel()

        await #expect(throws: DeliveryError("wtype was stopped: the delivery was cancelled.")) { try await delivery.value }
        let processID = try #require(
            pid_t(String(contentsOfFile: processIDFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(processID, 0) == -1 && errno == ESRCH)
    }

    @Test(.enabled(if: installed("wtype"), "needs wtype")) func aHelperThatFailsIsReportedWithWhatItSaid() async throws {
        let folder = TemporaryFolder()
        let target = VirtualKeyboardTarget(
            wtype: try #require(HelperProgram.find("wtype", on: "/usr/bin")),
            session: DesktopSession(environment: ["XDG_RUNTIME_DIR": folder.path, "WAYLAND_DISPLAY": "wayland-9"]))

        let error = await #expect(throws: DeliveryError.self) { try await target.deliver("hello") }

        #expect(error?.message.hasPrefix("wtype could not type: Wayland connection failed") == true)
    }

    @Test func theTextReachesTheProgramOnItsInputAndNoShellReadsIt() async throws {
        let folder = TemporaryFolder()
        let received = folder.file("received")
        // wtype is given `-` and reads the text on its input: this one keeps it.
        let wtype = try script(in: folder, "exec cat > \(received)")
        let text = "-- ; rm -rf ~ $(touch \(folder.file("ran")))\n-n é 한 😀"

        try await VirtualKeyboardTarget(wtype: wtype, session: DesktopSession(environment: ["XDG_RUNTIME_DIR": folder.path])).deliver(text)

        #expect(try String(contentsOfFile: received, encoding: .utf8) == text)
        #expect(!FileManager.default.fileExists(atPath: folder.file("ran")))
    }

    /// An executable shell script named `wtype`, standing in for a program that misbehaves.
    /// A typing tool gets the display and the runtime folder it needs, not the session bus's address, and no
    /// descriptor of notulad's but its standard three.
    @Test func aToolGetsTheDisplayButNotTheSessionBusNorOtherDescriptors() async throws {
        let folder = TemporaryFolder()
        let leaked = open("/dev/null", O_RDONLY)
        defer { close(leaked) }
        let tool = try script(
            in: folder, "tr '\\0' '\\n' < /proc/$$/environ > \(folder.file("environ")); exec ls /proc/self/fd > \(folder.file("fds"))")
        let session = DesktopSession(environment: [
            "WAYLAND_DISPLAY": "wayland-9", "XDG_RUNTIME_DIR": folder.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(folder.path)/bus",
        ])
        _ = try? await VirtualKeyboardTarget(wtype: tool, session: session, startUp: .seconds(60)).deliver("hello")

        let environment = try String(contentsOfFile: folder.file("environ"), encoding: .utf8).split(separator: "\n")
        #expect(environment.contains("WAYLAND_DISPLAY=wayland-9") && environment.contains("XDG_RUNTIME_DIR=\(folder.path)"))
        #expect(!environment.contains { $0.hasPrefix("DBUS_SESSION_BUS_ADDRESS=") })
        // ls's own listing of the folder is its 3.
        let descriptors = try String(contentsOfFile: folder.file("fds"), encoding: .utf8).split(separator: "\n")
        #expect(descriptors == ["0", "1", "2", "3"], "\(descriptors), ours: \(leaked)")
    }

    private func script(in folder: TemporaryFolder, _ body: String) throws -> HelperProgram {
        let path = folder.file("wtype")
        try Data("#!/bin/sh\n\(body)\n".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o755)
        return HelperProgram(path: path)
    }
}
