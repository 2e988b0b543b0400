import Delivering
import Synchronization
import Testing

/// Which way `Dictation` takes, with targets that record what reached them (the windows themselves are in the
/// desktop suites): a long text is pasted where the session's way is a helper program, a refused one is pasted or
/// left on the clipboard, and the error says which.
@Suite struct DictationChoiceTests {
    /// A target that records each text it is given, or refuses them all with `refusal`.
    final class Recorded: TextTarget, Sendable {
        let method: DeliveryMethod
        let refusal: DeliveryError?
        private let texts = Mutex<[String]>([])
        var received: [String] { texts.withLock { $0 } }

        init(_ method: DeliveryMethod, refusing refusal: DeliveryError? = nil) {
            self.method = method
            self.refusal = refusal
        }

        func deliver(_ text: String) async throws(DeliveryError) {
            if let refusal { throw refusal }
            texts.withLock { $0.append(text) }
        }
    }

    static let sway = DesktopSession(environment: [
        "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "sway", "WAYLAND_DISPLAY": "wayland-1",
    ])
    static let gnome = DesktopSession(environment: [
        "XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "GNOME", "WAYLAND_DISPLAY": "wayland-0",
    ])

    /// Tells the same focused program whenever asked, counting the questions.
    final class Focus: FocusReading {
        let program: FocusedProgram
        private let questions = Mutex(0)
        var asked: Int { questions.withLock { $0 } }

        init(_ program: FocusedProgram) { self.program = program }

        func focused() async -> FocusedProgram {
            questions.withLock { $0 += 1 }
            return program
        }
    }

    private static func dictation(
        _ session: DesktopSession, typing: [DeliveryMethod: Recorded], clipboard: Recorded, focus: (any FocusReading)? = nil
    ) -> Dictation {
        let ways = DeliveryWays(typing: typing.mapValues { .success($0) }, clipboard: .success(clipboard), focus: focus)
        return Dictation(readSession: { session }, findWays: { _ in ways })
    }

    @Test func onSwayAShortTextIsTypedAndALongOnePasted() async throws {
        let keyboard = Recorded(.virtualKeyboard)
        let paste = Recorded(.paste)
        let dictation = Self.dictation(Self.sway, typing: [.virtualKeyboard: keyboard, .paste: paste], clipboard: Recorded(.clipboard))
        let long = String(repeating: "word ", count: 41)

        #expect(try await dictation.deliver("short ", to: .type, typing: .automatic)?.method == .virtualKeyboard)
        #expect(try await dictation.deliver(long, to: .type, typing: .automatic)?.method == .paste)
        #expect(try await dictation.deliver(long, to: .type, typing: .forced(.virtualKeyboard))?.method == .virtualKeyboard)

        #expect(keyboard.received == ["short ", long])
        #expect(paste.received == [long])
    }

    @Test func onGNOMEALongTextStillGoesThroughThePortalWithoutAClipboard() async throws {
        let portal = Recorded(.portal)
        let ways = DeliveryWays(
            typing: [.portal: .success(portal), .paste: .failure(DeliveryError("GNOME lets no program set the clipboard."))],
            clipboard: .failure(DeliveryError("GNOME lets no program set the clipboard.")))
        let dictation = Dictation(readSession: { Self.gnome }, findWays: { _ in ways })
        let long = String(repeating: "word ", count: 41) + "한"

        #expect(try await dictation.deliver(long, to: .type, typing: .automatic)?.method == .portal)
        #expect(portal.received == [long])
    }

    @Test func onKDETextOutsideTheLayoutIsPastedAndTheRestTyped() async throws {
        let kde = DesktopSession(environment: ["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": "wayland-0"])
        let portal = Recorded(.portal)
        let paste = Recorded(.paste)
        let dictation = Self.dictation(kde, typing: [.portal: portal, .paste: paste], clipboard: Recorded(.clipboard))

        #expect(try await dictation.deliver("Hello, \"Qt\" 5.27! ", to: .type, typing: .automatic)?.method == .portal)
        #expect(try await dictation.deliver("Grüße, 안녕 ", to: .type, typing: .automatic)?.method == .paste)
        #expect(try await dictation.deliver("café ", to: .type, typing: .forced(.portal))?.method == .portal)

        #expect(portal.received == ["Hello, \"Qt\" 5.27! ", "café "])
        #expect(paste.received == ["Grüße, 안녕 "])
    }

    @Test func aRefusedTextIsPastedInsteadAndFailingThatLeftOnTheClipboard() async throws {
        let refusal = DeliveryError("Too many characters outside the layout.")
        let keyboard = Recorded(.xtest, refusing: refusal)
        let x11 = DesktopSession(environment: ["XDG_SESSION_TYPE": "x11", "DISPLAY": ":5"])
        let paste = Recorded(.paste)
        #expect(
            try await Self.dictation(x11, typing: [.xtest: keyboard, .paste: paste], clipboard: Recorded(.clipboard))
                .deliver("한국어", to: .type, typing: .automatic)?.method == .paste)
        #expect(paste.received == ["한국어"])

        let clipboard = Recorded(.clipboard)
        let refusingPaste = Recorded(.paste, refusing: DeliveryError("The focused window did not paste."))
        let error = await #expect(throws: DeliveryError.self) {
            try await Self.dictation(x11, typing: [.xtest: keyboard, .paste: refusingPaste], clipboard: clipboard)
                .deliver("한국어", to: .type, typing: .automatic)
        }
        #expect(error?.message == "Too many characters outside the layout. The text is on the clipboard: paste it with Ctrl+V.")
        #expect(clipboard.received == ["한국어"])
    }

    @Test func aTextThePortalLeftOnTheClipboardIsNotCopiedAgainNorSaidToBeLost() async throws {
        let unpasted = DeliveryError("The window did not ask for it: paste it yourself.", leftOnClipboard: true)
        let clipboard = Recorded(.clipboard)
        let dictation = Self.dictation(Self.gnome, typing: [.portal: Recorded(.portal, refusing: unpasted)], clipboard: clipboard)

        let error = await #expect(throws: DeliveryError.self) { try await dictation.deliver("안녕", to: .type, typing: .automatic) }

        #expect(error == unpasted)
        #expect(clipboard.received.isEmpty)
    }

    @Test func theMemoOutputAndAnEmptyTextDeliverNothing() async throws {
        let keyboard = Recorded(.virtualKeyboard)
        let dictation = Self.dictation(Self.sway, typing: [.virtualKeyboard: keyboard], clipboard: Recorded(.clipboard))

        #expect(try await dictation.deliver("text", to: .memo, typing: .automatic) == nil)
        #expect(try await dictation.deliver("", to: .type, typing: .automatic) == nil)
        #expect(keyboard.received.isEmpty)
    }

    /// "new line" is a lone "\n", "press enter" a "\r\n" (`WrittenText.enter`).
    @Test func aSpokenNewLineIsASpaceInATerminalAndWhereTheWindowIsUnknownButPressEnterIsReturn() async throws {
        let text = "echo pwned\ntouch x\n\nls\r\nmake\n"
        for (focus, typed, newLines) in [
            (Focus(.terminal("foot")), "echo pwned touch x ls\nmake ", NewLines.spacesInTerminal("foot")),
            (Focus(.unknown), "echo pwned touch x ls\nmake ", .spacesForUnknownWindow),
            (Focus(.other("gedit")), "echo pwned\ntouch x\n\nls\nmake\n", .kept),
        ] {
            let keyboard = Recorded(.virtualKeyboard)
            let dictation = Self.dictation(Self.sway, typing: [.virtualKeyboard: keyboard], clipboard: Recorded(.clipboard), focus: focus)
            let delivery = try await dictation.deliver(text, to: .type, typing: .automatic)
            #expect(delivery == Dictation.Delivery(method: .virtualKeyboard, newLines: newLines), "\(focus.program)")
            #expect(keyboard.received == [typed], "\(focus.program)")
        }
        let keyboard = Recorded(.virtualKeyboard)
        let nothingTells = Self.dictation(Self.sway, typing: [.virtualKeyboard: keyboard], clipboard: Recorded(.clipboard))
        #expect(try await nothingTells.deliver("a\nb", to: .type, typing: .automatic)?.newLines == .spacesForUnknownWindow)
        #expect(keyboard.received == ["a b"])
    }

    @Test func theFocusIsAskedOnlyForASpokenNewLineAndTheClipboardKeepsThem() async throws {
        let focus = Focus(.terminal("xterm"))
        let keyboard = Recorded(.virtualKeyboard)
        let clipboard = Recorded(.clipboard)
        let dictation = Self.dictation(Self.sway, typing: [.virtualKeyboard: keyboard], clipboard: clipboard, focus: focus)

        #expect(try await dictation.deliver("ls\r\n", to: .type, typing: .automatic)?.newLines == .kept)
        #expect(try await dictation.deliver("one\ntwo\r\n", to: .clipboard, typing: .automatic)?.newLines == .kept)

        #expect(focus.asked == 0)
        #expect(keyboard.received == ["ls\n"])
        #expect(clipboard.received == ["one\ntwo\n"])
    }
}
