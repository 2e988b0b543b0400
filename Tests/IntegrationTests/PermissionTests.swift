import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

private let notula = binaryDirectory.appendingPathComponent("notula").path
private let recorder = NotulaBus.recorderPath.rawValue
private let spy = "org.example.Spy"

/// Sandboxed apps (a real bwrap sandbox with `/.flatpak-info`, as Flatpak makes) are refused the live audio and text,
/// transcripts, exports and the output settings until the user allows them in the notification that asks; programs
/// outside a sandbox keep their access.
@Suite("A sandboxed app asks first", .serialized, .timeLimit(.minutes(3)))
struct PermissionTests {
    private let requestSummary = "\(spy) wants to hear your recordings"

    @Test func anAppIsAskedOnceHearsOnlyOnceAllowedKeepsItAcrossARestartAndLosesItOnRevoke() async throws {
        guard let app = try sandboxedApp() else { return }
        let bus = try PrivateBus()
        let server = try await NotificationDaemonMock(on: bus)
        let shown = ShownNotifications(server)
        let first = try await ServiceUnderTest.start(on: bus)
        let memo = try #require(try await recordMemos(1, on: first).first).rawValue

        let refused = try app.call(on: bus, recorder, "org.notula.Notula1.Recorder.WatchText")
        #expect(refused.status != 0)
        #expect(refused.errorOutput.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(refused.errorOutput)")
        #expect(refused.errorOutput.contains("notula permissions allow \(spy)"), "the message says how to allow it: \(refused.errorOutput)")
        // The memo recorded came with notifications of its own: the live one, a failure (no model here).
        let found = try #require(await shown.next(requestSummary))
        let request = found.notification
        #expect(request.actions == ["allow", "Allow", "deny", "Deny"])
        #expect(request.hints["category"] == .string("x-notula.permission"))

        // Every gated member is refused, and none asks again while the request is on screen.
        for call in gatedCalls(memo: memo) {
            let result = try app.call(on: bus, call.path, call.method, call.arguments)
            #expect(result.errorOutput.contains("AccessDenied"), "\(call.method): \(result.errorOutput)")
        }
        // The next notification is the live one: had a call asked again, its request would have come first.
        try await first.recorder(.toggle)
        #expect(await shown.next("Recording")?.skipped.contains(requestSummary) == false)
        try await first.recorder(.discard)
        // A program outside a sandbox keeps its access, undecided app or not.
        #expect(try await first.recorder(.watchText).body.count == 1)
        #expect(try await first.library(.search, [.string("nothing"), .uint32(5)]).body.count == 1)

        var changes = try await first.recorderSignals().makeAsyncIterator()
        try await server.invoke("allow", on: found.id)
        try await permissionsChange(&changes)
        #expect(try await first.property(.permissions) == .dictionary(key: "s", value: "s", [entry(spy, "allowed")]))
        let allowed = try app.call(on: bus, recorder, "org.notula.Notula1.Recorder.WatchText")
        #expect(allowed.status == 0, "\(allowed.errorOutput)")
        #expect(allowed.output.contains("handle"), "a pipe handed over: \(allowed.output)")
        for call in gatedCalls(memo: memo) {
            let result = try app.call(on: bus, call.path, call.method, call.arguments)
            #expect(!result.errorOutput.contains("AccessDenied"), "\(call.method): \(result.errorOutput)")
        }

        // Remembered in settings.json: a new notulad lets the app in without asking.
        #expect(first.stop() == 0)
        let second = try await ServiceUnderTest.start(on: bus, home: first.home)
        #expect(try app.call(on: bus, recorder, "org.notula.Notula1.Recorder.WatchText").status == 0)
        var environment = second.environment
        environment["PATH"] = binaryDirectory.path + ":/usr/bin:/bin"
        #expect(try output(of: [notula, "permissions"], environment: environment) == "\(spy)  allowed\n")

        changes = try await second.recorderSignals().makeAsyncIterator()
        #expect(
            try output(of: [notula, "permissions", "revoke", spy], environment: environment) == "\(spy): asked again at its next request\n")
        try await permissionsChange(&changes)
        let revoked = try app.call(on: bus, recorder, "org.notula.Notula1.Recorder.WatchText")
        #expect(revoked.errorOutput.contains("AccessDenied"), "\(revoked.errorOutput)")
        #expect(await shown.next(requestSummary) != nil, "asked again")
        withExtendedLifetime(first) {}
    }

    @Test func aDeniedAppIsRefusedWithoutBeingAskedAgain() async throws {
        guard let app = try sandboxedApp() else { return }
        let bus = try PrivateBus()
        let server = try await NotificationDaemonMock(on: bus)
        let shown = ShownNotifications(server)
        let service = try await ServiceUnderTest.start(on: bus)
        var changes = try await service.recorderSignals().makeAsyncIterator()

        _ = try app.call(on: bus, recorder, "org.notula.Notula1.Recorder.OpenAudio", ["s16le"])
        try await server.invoke("deny", on: try #require(await shown.next(requestSummary)).id)
        try await permissionsChange(&changes)

        let refused = try app.call(on: bus, recorder, "org.notula.Notula1.Recorder.OpenAudio", ["s16le"])
        #expect(refused.errorOutput.contains("AccessDenied"), "\(refused.errorOutput)")
        #expect(refused.errorOutput.contains("You denied \(spy) access"), "\(refused.errorOutput)")
        #expect(refused.errorOutput.contains("notula permissions allow \(spy)"), "\(refused.errorOutput)")
        try await service.recorder(.toggle)
        #expect(await shown.next("Recording")?.skipped.contains(requestSummary) == false, "no second request")
        #expect(try await service.property(.permissions) == .dictionary(key: "s", value: "s", [entry(spy, "denied")]))
    }

    @Test func onlyAProgramOutsideASandboxChangesPermissions() async throws {
        guard let app = try sandboxedApp() else { return }
        let bus = try PrivateBus()
        let service = try await ServiceUnderTest.start(on: bus)
        let grab = try app.call(on: bus, recorder, "org.notula.Notula1.Recorder.SetPermission", [spy, "allowed"])
        #expect(grab.errorOutput.contains("AccessDenied"), "\(grab.errorOutput)")
        #expect(try await service.property(.permissions) == .dictionary(key: "s", value: "s", []))

        var environment = service.environment
        environment["PATH"] = binaryDirectory.path + ":/usr/bin:/bin"
        #expect(try output(of: [notula, "permissions"], environment: environment).hasPrefix("No sandboxed app allowed or denied yet"))
        #expect(
            try output(of: [notula, "permissions", "deny", "org.example.Other"], environment: environment) == "org.example.Other: denied\n")
        #expect(try output(of: [notula, "permissions", "allow", spy], environment: environment) == "\(spy): allowed\n")
        #expect(
            try output(of: [notula, "permissions"], environment: environment) == "org.example.Other  denied\n\(spy)    allowed\n")
        #expect(try app.call(on: bus, recorder, "org.notula.Notula1.Recorder.WatchText").status == 0)
        let bad = try run(notula, ["permissions", "allow", "not an app;rm"], environment: environment)
        #expect(bad.status == 2, "InvalidArgs is a bad command line: \(bad.errorOutput)")
        let settings = try String(contentsOf: service.home.appendingPathComponent("config/notula/settings.json"), encoding: .utf8)
        #expect(settings.contains(#""org.example.Other" : "denied""#), "\(settings)")
    }

    /// Each member that hands out what was heard, as gdbus spells the call.
    private func gatedCalls(memo: String) -> [(path: String, method: String, arguments: [String])] {
        [
            (recorder, "org.notula.Notula1.Recorder.OpenAudio", ["s16le"]),
            (recorder, "org.notula.Notula1.Recorder.Dictate", ["memo", "0"]),
            (recorder, "org.notula.Notula1.Recorder.ProcessTo", ["memo"]),
            (recorder, "org.freedesktop.DBus.Properties.Set", ["org.notula.Notula1.Recorder", "Output", "<'memo'>"]),
            (recorder, "org.freedesktop.DBus.Properties.Set", ["org.notula.Notula1.Recorder", "Typing", "<'auto'>"]),
            (recorder, "org.freedesktop.DBus.Properties.Set", ["org.notula.Notula1.Recorder", "Live", "<false>"]),
            (recorder, "org.freedesktop.DBus.Properties.Set", ["org.notula.Notula1.Recorder", "Vocabulary", "<['Kowalczyk']>"]),
            (recorder, "org.freedesktop.DBus.Properties.Get", ["org.notula.Notula1.Recorder", "Vocabulary"]),
            (NotulaBus.libraryPath.rawValue, "org.notula.Notula1.Library.Search", ["note", "5"]),
            (memo, "org.notula.Notula1.Memo.GetTranscript", []),
            (memo, "org.notula.Notula1.Memo.Export", ["txt"]),
        ]
    }

    private func sandboxedApp() throws -> SandboxedApp? {
        if let reason = SandboxedApp.unavailable {
            print("Skipped: \(reason)")
            return nil
        }
        return try SandboxedApp(spy)
    }

    private func entry(_ key: String, _ value: String) -> DictionaryEntry {
        DictionaryEntry(key: .string(key), value: .string(value))
    }

    /// Returns at the recorder's next `PropertiesChanged` naming Permissions.
    private func permissionsChange(_ signals: inout AsyncStream<Message>.Iterator) async throws {
        while let message = await signals.next() {
            guard message.member == "PropertiesChanged" else { continue }
            if try message.argument(1, as: [String: Variant].self)["Permissions"] != nil { return }
        }
        Issue.record("the signals ended before Permissions changed")
    }
}

/// What a mock notification server is shown, read in order: the id of each new notification counted as the mock
/// gives them (from 1, in order, across its life).
private final class ShownNotifications {
    struct Found {
        let notification: PostedNotification
        let id: UInt32
        /// The summaries shown before it since the last search.
        let skipped: [String]
    }

    private let server: NotificationDaemonMock
    private var posted: UInt32 = 0

    init(_ server: NotificationDaemonMock) { self.server = server }

    /// The next notification whose summary is `summary`; nil when the server is gone.
    func next(_ summary: String) async -> Found? {
        var skipped: [String] = []
        while let notification = await server.nextNotification() {
            if notification.replacesID == 0 { posted += 1 }
            if notification.summary == summary { return Found(notification: notification, id: posted, skipped: skipped) }
            skipped.append(notification.summary)
        }
        return nil
    }
}
