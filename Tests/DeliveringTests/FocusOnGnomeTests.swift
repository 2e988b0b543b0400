import DBus
import Delivering
import Foundation
import NotulaTestSupport
import TestPasses
import Testing

/// On a real, headless GNOME Shell 43 with Notula's extension, notulad's focus finder asks the Shell which window has
/// the focus: into GNOME's terminal running bash a spoken new line is typed through the portal as a space, and runs
/// nothing; into a GTK window it is Return. A program that answers in the Shell's place is never asked. One Shell for
/// the suite; one window at a time has the focus.
@Suite(.serialized, .tags(.desktop)) struct FocusOnGnomeTests {
    static let session = DesktopSession(
        environment: ["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "GNOME", "WAYLAND_DISPLAY": "wayland-0"])

    /// The Shell with the extension enabled and notulad's dictation on its bus, typing through the portal.
    private static func dictationOnGnome() async throws -> (GnomeShellHost, Bus, Dictation) {
        let host = try desktop(await GnomeShellHost.shared())
        guard installed("gnome-terminal") else {
            print("Skipped: gnome-terminal is not installed (make test-deps)")
            try Test.cancel("gnome-terminal is not installed (make test-deps)")
        }
        try await host.installNotulaExtension()
        let bus = try await host.connect()
        let keyboard = PortalKeyboard(bus: bus, restoreTokenFile: "/nonexistent/restore-token", consentTimeout: .seconds(60))
        let ways = DeliveryWays(
            typing: [.portal: .success(keyboard)], clipboard: .failure(DeliveryError("not in this test")),
            focus: HelperTargets(session: session, searchPath: "/usr/bin").focusFinder(bus: bus))
        return (host, bus, Dictation(readSession: { session }, findWays: { _ in ways }))
    }

    @Test func aSpokenNewLineInGnomesTerminalIsASpaceAndReturnAskedForByNameRunsTheLine() async throws {
        let (host, bus, dictation) = try await Self.dictationOnGnome()
        defer { Task { await bus.close() } }
        let shell = try await host.openTerminalShell()
        let (first, second) = ("\(shell.folder)/first", "\(shell.folder)/second")

        let answer = try host.answerRemoteDesktopDialog(.allow)
        let spoken = try await dictation.deliver("touch \(first)\n", to: .type, typing: .automatic)
        try await answer.answered()
        // "press enter": Return by name. Had the spoken new line been Return, `touch first` would have run alone and
        // this line, starting with &&, would be bash's syntax error: `second` exists only if the two were one line.
        let pressed = try await dictation.deliver("&& touch \(second)\r\n", to: .type, typing: .automatic)

        #expect(spoken == Dictation.Delivery(method: .portal, newLines: .spacesInTerminal("gnome-terminal-")))
        #expect(pressed == Dictation.Delivery(method: .portal, newLines: .kept))
        try await poll(within: .seconds(10)) {
            FileManager.default.fileExists(atPath: second)
        } otherwise: {
            TextNotArrived(expected: "touch \(first) && touch \(second) run as one line", arrived: "no \(second)")
        }
        #expect(FileManager.default.fileExists(atPath: first))
    }

    @Test func aSpokenNewLineInAGTKWindowIsReturn() async throws {
        let (host, bus, dictation) = try await Self.dictationOnGnome()
        defer { Task { await bus.close() } }
        let target = try await host.openTypingTarget()

        let answer = try host.answerRemoteDesktopDialog(.allow)
        let delivery = try await dictation.deliver("first\nsecond", to: .type, typing: .automatic)
        try await answer.answered()

        // Return in the one-line entry activates it, leaving no character: no space stands for the new line.
        #expect(delivery == Dictation.Delivery(method: .portal, newLines: .kept))
        try await target.waitForText("firstsecond")
    }

    /// Another program exports the extension's object on its own connection: the focus finder's call goes to the Shell
    /// alone, which tells the terminal; with the extension disabled, the focus is unknown. (It does not ask for the
    /// Shell's name: the Shell lets any unconfined program replace it, which a sandboxed one cannot do.)
    @Test func aProgramDescribingTheFocusInTheShellsPlaceIsNeverAsked() async throws {
        let (host, bus, _) = try await Self.dictationOnGnome()
        defer { Task { await bus.close() } }
        let forger = try await host.connect()
        defer { Task { await forger.close() } }
        let describedAsAnEditor = Method(
            "Describe", outputs: [Argument("pid", "u"), Argument("wm_class", "s"), Argument("app_id", "s")]
        ) { _ in .now([.uint32(getpid().magnitude), .string("gedit"), .string("org.gnome.gedit")]) }
        await forger.export(
            ObjectPath("/org/notula/Notula1/FocusedWindow")!,
            interfaces: [Interface("org.notula.Notula1.FocusedWindow", methods: [describedAsAnEditor])])
        let finder = try #require(HelperTargets(session: Self.session, searchPath: "/usr/bin").focusFinder(bus: bus))
        _ = try await host.openTerminalShell()

        #expect(await finder.focused() == .terminal("gnome-terminal-"))
        try await host.disableExtension(notulaExtensionUUID)
        let withoutExtension = await finder.focused()
        try await host.enableExtension(notulaExtensionUUID)
        #expect(withoutExtension == .unknown)
    }
}
