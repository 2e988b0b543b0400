import Delivering
import Foundation
import NotulaTestSupport
import Testing

/// Runs a suite's tests with one headless sway, reachable as `TerminalsInSway.current`: started before them, killed
/// after, so that each test opens only a terminal.
struct SwayScope: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await TerminalsInSway.$current.withValue(TerminalsInSway()) { try await function() }
    }
}

/// Runs a suite's tests with one Xvfb, reachable as `TerminalsUnderXvfb.current`.
struct XvfbScope: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await TerminalsUnderXvfb.$current.withValue(TerminalsUnderXvfb()) { try await function() }
    }
}

extension Trait where Self == SwayScope {
    static var terminalsInSway: Self { Self() }
}

extension Trait where Self == XvfbScope {
    static var terminalsUnderXvfb: Self { Self() }
}

extension TerminalsInSway {
    nonisolated var session: DesktopSession {
        DesktopSession(environment: environment.merging(["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "sway"]) { $1 })
    }

    /// The helper programs' ways into this sway, as notulad finds them in a sway session.
    nonisolated var helperTargets: HelperTargets { HelperTargets(session: session, searchPath: "/usr/local/bin:/usr/bin:/bin") }

    /// Presses Ctrl+T, as a user would.
    nonisolated func pressControlT() throws {
        try output(of: ["/usr/bin/wtype", "-M", "ctrl", "t", "-m", "ctrl"], environment: environment)
    }
}

extension TerminalsUnderXvfb {
    var session: DesktopSession { DesktopSession(environment: environment.merging(["XDG_SESSION_TYPE": "x11"]) { $1 }) }

    /// The helper programs' ways onto this display, as notulad finds them in an X11 session.
    var helperTargets: HelperTargets { HelperTargets(session: session, searchPath: "/usr/bin:/bin") }

    /// Presses Ctrl+T, as a user would.
    func pressControlT() throws { try output(of: ["/usr/bin/xdotool", "key", "ctrl+t"], environment: environment) }
}

/// What notulad's `Dictation` is in `session`: the ways of `targets` (`DeliveryWiring`'s, but the portal) and their
/// focus finder.
func dictation(into session: DesktopSession, through targets: HelperTargets) -> Dictation {
    let ways = DeliveryWays(
        typing: [.virtualKeyboard: targets.virtualKeyboard(), .xtest: targets.xtest(), .paste: targets.paste()],
        clipboard: targets.clipboard(), focus: targets.focusFinder())
    return Dictation(readSession: { session }, findWays: { _ in ways })
}

/// A text ending in a spoken new line is typed into the shell of a real terminal through `dictation`, then Ctrl+T
/// shows its command line: the text is there with a space for the new line, and the command did not run.
func expectSpokenNewLineRunsNothing(
    in shell: CommandLineShell, through dictation: Dictation, method: DeliveryMethod, terminal: String, pressControlT: () throws -> Void
) async throws {
    let marker = "\(shell.folder)/pwned"
    let delivery = try await dictation.deliver("touch \(marker)\n", to: .type, typing: .automatic)
    try pressControlT()
    try await poll(within: .seconds(10)) {
        shell.commandLine() != nil
    } otherwise: {
        TextNotArrived(expected: "a command line", arrived: "")
    }

    #expect(delivery == Dictation.Delivery(method: method, newLines: .spacesInTerminal(terminal)))
    #expect(shell.commandLine() == "touch \(marker) ")
    #expect(!FileManager.default.fileExists(atPath: marker), "the spoken new line ran the command")
}

/// The same text into a GTK entry, no terminal, keeps its new line: typed as Return, which the one-line entry takes
/// as activation, so nothing (no space) stands for it in the text.
func expectSpokenNewLineIsReturnOutsideATerminal(
    in entry: @escaping () -> String, through dictation: Dictation, method: DeliveryMethod
) async throws {
    let delivery = try await dictation.deliver("first\nsecond", to: .type, typing: .automatic)
    #expect(delivery == Dictation.Delivery(method: method, newLines: .kept))
    try await waitUntilTyped("firstsecond", in: entry)
}

/// Whether every one of `programs` is installed (`make test-deps` installs them), for `.enabled(if:)`.
func installed(_ programs: String...) -> Bool {
    programs.allSatisfy { FileManager.default.isExecutableFile(atPath: "/usr/bin/\($0)") }
}

/// Returns once `typed()` reads `text`; throws, showing what arrived instead, when it does not soon.
func waitUntilTyped(_ text: String, in typed: () -> String) async throws {
    try await poll(within: .seconds(10)) {
        typed() == text
    } otherwise: {
        TextNotArrived(expected: text, arrived: typed())
    }
}

struct TextNotArrived: Error, CustomStringConvertible {
    let expected: String
    let arrived: String
    var description: String { "expected \(expected.debugDescription), the window holds \(arrived.debugDescription)" }
}

/// The suite's headless desktop; the test is skipped, saying why, where it cannot run here.
func desktop<Host>(_ starting: Result<Host, HeadlessSession.Unavailable>) throws -> Host {
    guard case .failure(let unavailable) = starting else { return try starting.get() }
    print("Skipped: \(unavailable.reason)")
    try Test.cancel(Comment(rawValue: unavailable.reason))
}
