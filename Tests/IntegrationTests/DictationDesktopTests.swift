import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// notulad types a memo's text into a real window: through XTEST into an xterm on Xvfb, through the virtual keyboard
/// into foot on a headless sway, through the RemoteDesktop portal on a real, headless GNOME Shell 43, its consent
/// dialog answered as a user would, and pasted through KWin's clipboard and the KDE portal's Ctrl+V into a Qt
/// window. One Shell and one KWin for the suite.
@Suite("Dictation into real desktops", .serialized, .tags(.desktop))
struct DictationDesktopTests {
    /// notulad on the Shell's session bus, told it is in a GNOME Wayland session, transcribing Korean.
    private static func serviceOnGNOME(_ host: GnomeShellHost, modelPlace place: URL) async throws -> ServiceUnderTest {
        try await ServiceUnderTest.start(
            environment: [
                "VOSK_MODEL_PATH": place.path, "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "GNOME",
                "WAYLAND_DISPLAY": "wayland-0",
            ],
            settings: [#""locale": "ko-KR""#], on: PrivateBus(attachedTo: host.busAddress))
    }

    /// notulad in the sway session, transcribing Korean, with `settings` besides.
    private static func serviceInSway(_ sway: TerminalsInSway, modelPlace place: URL, settings: [String] = []) async throws
        -> ServiceUnderTest
    {
        try await ServiceUnderTest.start(
            environment: sway.environment.merging(
                ["VOSK_MODEL_PATH": place.path, "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "sway", "DISPLAY": ""]) { $1 },
            settings: [#""locale": "ko-KR""#] + settings)
    }

    @Test func onX11TheMemoIsTypedIntoTheFocusedWindowAndTheNextOneCopied() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let display = try TerminalsUnderXvfb()
        let terminal = try await display.openTerminal()
        // The display as a session exports it; Output set in settings.json, as a user who chose it once.
        let service = try await ServiceUnderTest.start(
            environment: [
                "VOSK_MODEL_PATH": place.path, "XDG_SESSION_TYPE": "x11", "DISPLAY": try #require(display.environment["DISPLAY"]),
                "WAYLAND_DISPLAY": "",
            ],
            settings: [#""locale": "ko-KR""#, #""output": "type""#])

        var signals = try await service.recorderSignals()
        try await service.recorder(.start)
        try await service.sink?.play(try speech("annyeong haseyo, notula imnida"))
        let typed = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        let typedOutcome = try await deliveryOutcome(in: signals)
        let (copied, copySignals) = try await dictate("gamsa hamnida", to: "clipboard", into: service)
        signals = copySignals
        let copiedOutcome = try await deliveryOutcome(in: signals)

        #expect(typedOutcome.isSignal(.delivered), "\(typedOutcome.body)")
        #expect(try typedOutcome.argument(1, as: String.self) == "xtest")
        let typedText = try await service.memo(.getTranscript, of: typed).argument(0, as: String.self)
        #expect(!typedText.isEmpty)
        try await poll(within: .seconds(10), until: { terminal.typed() == typedText + " " }) { NotTyped(arrived: terminal.typed()) }
        #expect(copiedOutcome.isSignal(.delivered), "\(copiedOutcome.body)")
        #expect(try copiedOutcome.argument(0, as: ObjectPath.self) == copied)
        #expect(try copiedOutcome.argument(1, as: String.self) == "clipboard")
        let copiedText = try await service.memo(.getTranscript, of: copied).argument(0, as: String.self)
        #expect(try output(of: ["xclip", "-o", "-selection", "clipboard"], environment: display.environment) == copiedText + " ")
        #expect(terminal.typed() == typedText + " ", "the copied memo is not typed")
    }

    @Test func onSwayTheVirtualKeyboardTypesTheMemoIntoTheFocusedWindow() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let sway = try await TerminalsInSway()
        let terminal = try await sway.openTerminal()
        let service = try await Self.serviceInSway(sway, modelPlace: place)

        let (memo, signals) = try await dictate("annyeong haseyo, notula imnida", to: "type", into: service)
        let outcome = try await deliveryOutcome(in: signals)

        #expect(outcome.isSignal(.delivered), "\(outcome.body)")
        #expect(try outcome.argument(1, as: String.self) == "virtual-keyboard")
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(!text.isEmpty)
        try await poll(within: .seconds(10), until: { terminal.typed() == text + " " }) { NotTyped(arrived: terminal.typed()) }
    }

    /// notulad killed between the one-time paste's copy and the clipboard's return (a `wtype` that kills it instead of
    /// pressing Ctrl+V): what the user had copied waited in a 0600 file, and is back on the clipboard once notulad
    /// starts again.
    @Test func onSwayAClipboardANotuladKilledDuringAPasteLeftIsBackAtTheNextStart() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let sway = try await TerminalsInSway()
        let clipboardEnvironment = sway.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 }
        let copied = "copied before: naïve 한 😀"
        let tools = TemporaryFolder()
        // Not awaited: Process waits for what the child wl-copy forks to serve the clipboard holds.
        let copier = Process()
        copier.executableURL = URL(fileURLWithPath: "/usr/bin/wl-copy")
        copier.arguments = [copied]
        copier.environment = clipboardEnvironment
        copier.standardOutput = FileHandle.nullDevice
        copier.standardError = FileHandle.nullDevice
        try copier.run()
        try await poll(within: .seconds(10)) {
            (try? output(of: ["/usr/bin/wl-paste", "--no-newline"], environment: clipboardEnvironment)) == copied
        } otherwise: {
            NotTyped(arrived: "nothing copied")
        }
        _ = FileManager.default.createFile(
            atPath: tools.file("wtype"), contents: Data("#!/bin/sh\nkill -9 $PPID\n".utf8), attributes: [.posixPermissions: 0o755])
        let environment = sway.environment.merging(
            [
                "VOSK_MODEL_PATH": place.path, "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "sway", "DISPLAY": "",
                "PATH": tools.path + ":/usr/bin:/bin",
            ]) { $1 }
        let killed = try await ServiceUnderTest.start(environment: environment, settings: [#""locale": "ko-KR""#, #""typing": "paste""#])

        let (memo, _) = try await dictate("annyeong haseyo, notula imnida", to: "type", into: killed)
        #expect(killed.waitForExit() == SIGKILL)
        let killedLog = killed.log
        let folder = try #require(sway.environment["XDG_RUNTIME_DIR"]) + "/notula"
        let kept = folder + "/clipboard"
        #expect(try FileManager.default.attributesOfItem(atPath: kept)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int == 0o700)

        let restarted = try await ServiceUnderTest.start(environment: environment, on: killed.daemon, home: killed.home)
        try await poll(within: .seconds(10)) {
            !FileManager.default.fileExists(atPath: kept)
        } otherwise: {
            NotTyped(arrived: restarted.log)
        }
        // The file goes once notulad has asked for the clipboard; sway makes it the selection a moment later.
        try await poll(within: .seconds(10)) {
            (try? output(of: ["/usr/bin/wl-paste", "--no-newline"], environment: clipboardEnvironment)) == copied
        } otherwise: {
            NotTyped(arrived: "the clipboard never came back: \(restarted.log)")
        }
        #expect(restarted.log.contains("A paste was cut short before notulad stopped"))
        // Nothing of the dictation, nor of what the user had copied, in the journal.
        let text = try await restarted.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(!text.isEmpty)
        for log in [killedLog, restarted.log] { #expect(!log.contains(text) && !log.contains(copied)) }
    }

    /// `Live`: the first sentence is in the window while the user still speaks, the whole text once after Send.
    @Test(.timeLimit(.minutes(3))) func onSwayEachSentenceIsTypedAsItEndsAndTheWholeTextOnce() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let sway = try await TerminalsInSway()
        let terminal = try await sway.openTerminal()
        let service = try await Self.serviceInSway(sway, modelPlace: place, settings: [#""output": "type""#, #""live": true"#])
        #expect(try await service.property(.live) == .boolean(true))
        // Two utterances (see twoSentences); the reader tells when the first ended.
        let (first, quiet, second) = try twoSentences()
        let reader = try await LiveTextReader.watching(service)
        let signals = try await service.recorderSignals()

        try await service.recorder(.start)
        try await service.sink?.play(first)
        try await service.sink?.play(quiet)
        var firstUtterance: String?
        for await line in reader.lines where line.kind == "final" {
            firstUtterance = line.text
            break
        }
        let typedFirst = try #require(firstUtterance)
        try await poll(within: .seconds(10), until: { terminal.typed() == typedFirst }) { NotTyped(arrived: terminal.typed()) }
        #expect(try await service.property(.state) == .string("recording"), "typed before Send")

        try await service.sink?.play(second)
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        let outcome = try await deliveryOutcome(in: signals)
        #expect(outcome.isSignal(.delivered), "\(outcome.body)")
        #expect(try outcome.argument(0, as: ObjectPath.self) == memo)
        #expect(try outcome.argument(1, as: String.self) == "virtual-keyboard")
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(text.hasPrefix(typedFirst + " ") && text.count > typedFirst.count + 1, "two utterances: \(text)")
        try await poll(within: .seconds(10), until: { terminal.typed() == text + " " }) { NotTyped(arrived: terminal.typed()) }
        close(reader.descriptor)
    }

    /// `Live` with a way of typing the session lacks: the first sentence fails, `Failed` says so once, nothing
    /// is typed after it, and at Send the whole text is on the clipboard.
    @Test(.timeLimit(.minutes(3))) func onSwayAFailureWhileTypingLiveIsToldOnceAndTheRestIsCopied() async throws {
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let sway = try await TerminalsInSway()
        let terminal = try await sway.openTerminal()
        let service = try await Self.serviceInSway(
            sway, modelPlace: place, settings: [#""output": "type""#, #""live": true"#, #""typing": "xtest""#])
        let phrases = try twoSentences()
        let signals = try await service.recorderSignals()

        var failures: [String] = []
        var delivered = 0
        func note(_ message: Message) throws {
            if message.isSignal(.failed) { failures.append(try message.argument(0, as: String.self)) }
            if message.isSignal(.delivered) { delivered += 1 }
        }
        try await service.recorder(.start)
        try await service.sink?.play(phrases.0)
        try await service.sink?.play(phrases.1)
        // The first sentence ended, was to be typed and could not: told while the user still speaks.
        for await message in signals {
            try note(message)
            if message.isSignal(.failed) { break }
        }
        #expect(try await service.property(.state) == .string("recording"))
        try await service.sink?.play(phrases.2)
        let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
        for await message in signals {
            try note(message)
            if message.isSignal(.processed) { break }
        }
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        let clipboard = { (try? output(of: ["wl-paste", "--no-newline"], environment: sway.environment)) ?? "" }
        try await poll(within: .seconds(10), until: { clipboard() == text }) { NotTyped(arrived: clipboard()) }

        // A property set after the clipboard was filled: its change comes after every signal before it.
        try await service.call(
            NotulaBus.recorderPath, "org.freedesktop.DBus.Properties", "Set",
            [.string(NotulaBus.recorderInterface.rawValue), .string("SilenceSeconds"), .variant(.double(1))])
        for await message in signals {
            try note(message)
            if message.member == "PropertiesChanged",
                (try? message.argument(1, as: [String: Variant].self))?["SilenceSeconds"] != nil
            {
                break
            }
        }
        #expect(delivered == 0)
        #expect(failures == [NotulaErrorName.outputUnavailable.rawValue.rawValue], "once")
        #expect(terminal.typed().isEmpty)
    }

    @Test func onGNOMEThePortalTypesTheMemoIntoTheFocusedWindow() async throws {
        let host = try desktop(await GnomeShellHost.shared())
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let target = try await host.openTypingTarget()
        let service = try await Self.serviceOnGNOME(host, modelPlace: place)

        let answer = try host.answerRemoteDesktopDialog(.allow)
        let (memo, signals) = try await dictate("annyeong haseyo, notula imnida", to: "type", into: service)
        let outcome = try await deliveryOutcome(in: signals)
        try await answer.answered()

        #expect(outcome.isSignal(.delivered), "\(outcome.body) \(service.log)")
        #expect(try outcome.argument(0, as: ObjectPath.self) == memo)
        #expect(try outcome.argument(1, as: String.self) == "portal")
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(!text.isEmpty)
        try await target.waitForText(text + " ")
    }

    @Test func onGNOMEARefusedRequestSaysToAllowItAndKeepsTheMemo() async throws {
        let host = try desktop(await GnomeShellHost.shared())
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let target = try await host.openTypingTarget()
        let service = try await Self.serviceOnGNOME(host, modelPlace: place)

        let answer = try host.answerRemoteDesktopDialog(.cancel)
        let (memo, signals) = try await dictate("annyeong haseyo", to: "type", into: service)
        let outcome = try await deliveryOutcome(in: signals)
        try await answer.answered()

        #expect(outcome.isSignal(.failed))
        #expect(try outcome.argument(0, as: String.self) == NotulaErrorName.outputUnavailable.rawValue.rawValue)
        #expect(try outcome.argument(1, as: String.self).contains("allow"))
        #expect(try await service.property(.status, of: memo) == .string("done"))
        #expect(target.text == "")
    }

    @Test func onKDEAMemoOutsideTheLayoutIsPastedIntoTheFocusedQtWindow() async throws {
        let host = try desktop(await PlasmaHost.shared())
        let place = try modelPlace()
        defer { try? FileManager.default.removeItem(at: place) }
        let target = try await host.openTypingTarget(.qt5)
        let service = try await serviceOnKDE(host, modelPlace: place)

        let (memo, signals) = try await dictate("annyeong haseyo, notula imnida", to: "type", into: service)
        let outcome = try await deliveryOutcome(in: signals)

        #expect(outcome.isSignal(.delivered), "\(outcome.body) \(service.log)")
        #expect(try outcome.argument(1, as: String.self) == "paste")
        let text = try await service.memo(.getTranscript, of: memo).argument(0, as: String.self)
        #expect(text.unicodeScalars.contains { $0.value >= 0xAC00 }, "a Hangul transcript: \(text)")
        try await target.waitForText(text + " ")
    }
}

/// notulad on KWin's session bus, told it is in a KDE Wayland session, transcribing Korean, with `settings` besides.
func serviceOnKDE(_ host: PlasmaHost, modelPlace place: URL, settings: [String] = []) async throws -> ServiceUnderTest {
    // The display by its full path: notulad's runtime folder is not the session's.
    let display = try #require(host.environment["XDG_RUNTIME_DIR"]) + "/wayland-0"
    return try await ServiceUnderTest.start(
        environment: [
            "VOSK_MODEL_PATH": place.path, "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": display,
            "DISPLAY": "",
        ],
        settings: [#""locale": "ko-KR""#] + settings, on: PrivateBus(attachedTo: host.busAddress))
}

/// What the window held instead of the memo's text.
struct NotTyped: Error { let arrived: String }

/// The suite's headless desktop; the test is skipped, saying why, where it cannot run here.
func desktop<Host>(_ starting: Result<Host, HeadlessSession.Unavailable>) throws -> Host {
    guard case .failure(let unavailable) = starting else { return try starting.get() }
    print("Skipped: \(unavailable.reason)")
    try Test.cancel(Comment(rawValue: unavailable.reason))
}
