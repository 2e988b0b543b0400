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
    /// The helper programs' ways into this sway, as notulad finds them in a sway session.
    nonisolated var helperTargets: HelperTargets {
        let session = DesktopSession(
            environment: environment.merging(["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "sway"]) { $1 })
        return HelperTargets(session: session, searchPath: "/usr/local/bin:/usr/bin:/bin")
    }
}

extension TerminalsUnderXvfb {
    /// The helper programs' ways onto this display, as notulad finds them in an X11 session.
    var helperTargets: HelperTargets {
        HelperTargets(
            session: DesktopSession(environment: environment.merging(["XDG_SESSION_TYPE": "x11"]) { $1 }), searchPath: "/usr/bin:/bin")
    }
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
