import DBus
import Foundation
import NotulaTestSupport
import TestPasses
import Testing

@testable import Delivering

/// On a real, headless KWin 5.27 (Wayland), the script notulad has KWin load reports the focused window: into a
/// terminal running bash (Konsole) a spoken new line is typed through the KDE portal as a space, and runs
/// nothing; into a Qt window it is Return. A report from another connection than
/// KWin's is refused. One KWin for the suite.
@Suite(.serialized, .tags(.desktop)) struct FocusOnKDETests {
    /// The session as notulad reads it, notulad's connection with the script loaded, and its dictation, typing
    /// through the portal.
    private static func dictationOnKDE() async throws -> (PlasmaHost, Bus, FocusFinder, Dictation) {
        let host = try desktop(await PlasmaHost.shared())
        guard installed("konsole") else {
            print("Skipped: konsole is not installed (make test-deps)")
            try Test.cancel("konsole is not installed (make test-deps)")
        }
        let session = DesktopSession(environment: host.environment.merging(["XDG_SESSION_TYPE": "wayland"]) { $1 })
        let bus = try await host.connect()
        // In the session's home, removed with the host: KWin's user (nobody, as the session's) may read it there.
        let scripts = try #require(host.environment["HOME"]) + "/notula-kwin-\(UUID().uuidString)"
        let kwin = try #require(await KWinFocus.start(on: bus, scriptFolder: scripts, readableBy: getpwnam("nobody").pointee.pw_uid))
        let finder = try #require(HelperTargets(session: session, searchPath: "/usr/bin").focusFinder(bus: bus, kwin: kwin))
        let keyboard = PortalKeyboard(bus: bus, restoreTokenFile: "/nonexistent/restore-token", keyInterval: .zero, modifierPause: .zero)
        let ways = DeliveryWays(
            typing: [.portal: .success(keyboard)], clipboard: .failure(DeliveryError("not in this test")), focus: finder)
        return (host, bus, finder, Dictation(readSession: { session }, findWays: { _ in ways }))
    }

    /// Returns once KWin's script has reported `expected` as the focused program.
    private static func waitForFocus(_ expected: FocusedProgram, in finder: FocusFinder) async throws {
        var seen = FocusedProgram.unknown
        try await poll(within: .seconds(20)) {
            seen = await finder.focused()
            return seen == expected
        } otherwise: {
            TextNotArrived(expected: "\(expected)", arrived: "\(seen)")
        }
    }

    @Test(arguments: [PlasmaHost.Terminal.konsole])
    func aSpokenNewLineInATerminalIsASpaceAndReturnAskedForByNameRunsTheLine(terminal: PlasmaHost.Terminal) async throws {
        let (host, bus, finder, dictation) = try await Self.dictationOnKDE()
        defer { Task { await bus.close() } }
        let window = try await host.openTerminalShell(terminal)
        let shell = window.shell
        try await Self.waitForFocus(.terminal(terminal.rawValue), in: finder)
        let (first, second) = ("\(shell.folder)/first", "\(shell.folder)/second")
        // Konsole takes keys some time after KWin activated its window: a line run by Return asked for by name says when.
        let probe = "\(shell.folder)/probe"
        try await poll(within: .seconds(20)) {
            _ = try await dictation.deliver("touch \(probe)\r\n", to: .type, typing: .automatic)
            return FileManager.default.fileExists(atPath: probe)
        } otherwise: {
            TextNotArrived(expected: "touch \(probe) run", arrived: "no \(probe)")
        }

        let spoken = try await dictation.deliver("touch \(first)\n", to: .type, typing: .automatic)
        // Had the spoken new line been Return, `touch first` would have run alone and this line, starting with &&,
        // would be bash's syntax error: `second` exists only if the two were one line.
        let pressed = try await dictation.deliver("&& touch \(second)\r\n", to: .type, typing: .automatic)

        #expect(spoken == Dictation.Delivery(method: .portal, newLines: .spacesInTerminal(terminal.rawValue)))
        #expect(pressed == Dictation.Delivery(method: .portal, newLines: .kept))
        try await poll(within: .seconds(10)) {
            FileManager.default.fileExists(atPath: second)
        } otherwise: {
            TextNotArrived(expected: "touch \(first) && touch \(second) run as one line", arrived: "no \(second)")
        }
        #expect(FileManager.default.fileExists(atPath: first))
        withExtendedLifetime(window) {}
    }

    @Test func aSpokenNewLineInAQtWindowIsReturn() async throws {
        let (host, bus, finder, dictation) = try await Self.dictationOnKDE()
        defer { Task { await bus.close() } }
        let target = try await host.openTypingTarget(.qt5)
        try await Self.waitForFocus(.other("python3"), in: finder)

        let delivery = try await dictation.deliver("first\nsecond", to: .type, typing: .automatic)

        // Return in the one-line entry leaves no character: no space stands for the new line.
        #expect(delivery == Dictation.Delivery(method: .portal, newLines: .kept))
        try await target.waitForText("firstsecond")
    }

    @Test func aReportFromAnotherConnectionThanKWinsIsRefused() async throws {
        let (host, bus, finder, _) = try await Self.dictationOnKDE()
        defer { Task { await bus.close() } }
        let window = try await host.openTerminalShell(.konsole)
        try await Self.waitForFocus(.terminal("konsole"), in: finder)
        let forger = try await host.connect()
        defer { Task { await forger.close() } }

        let forged = MethodCall(
            destination: BusName(await bus.uniqueName), path: KWinFocus.path, interface: KWinFocus.interface, member: "Report",
            arguments: [.string("\(getpid())"), .string("gedit"), .string("org.gnome.gedit")])
        let error = await #expect(throws: BusError.self) { try await forger.call(forged) }

        #expect(error?.name == .accessDenied)
        #expect(await finder.focused() == .terminal("konsole"))
        withExtendedLifetime(window) {}
    }
}
