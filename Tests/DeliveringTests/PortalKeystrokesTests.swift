import Testing

@testable import Delivering

/// The keys that type a text through the portal: what the user's layout surely has goes as itself, the rest as
/// GTK's and IBus's Unicode entry.
@Suite struct PortalKeystrokesTests {
    @Test func asciiNewlineAndTabAreTheirOwnKeys() {
        let keys = PortalKeystrokes.characters(of: "a-Z\n\t").map { $0.filter(\.pressed).map(\.keysym) }
        #expect(keys == [[0x61], [0x2d], [0x5a], [0xff0d], [0xff09]])
        #expect(
            PortalKeystrokes.characters(of: "a").first == [KeyEvent(keysym: 0x61, pressed: true), KeyEvent(keysym: 0x61, pressed: false)])
    }

    @Test func otherCharactersAreEnteredAsControlShiftUTheirHexCodeAndSpace() {
        let events = PortalKeystrokes.characters(of: "한")
        #expect(events.count == 1)
        #expect(
            events[0] == [
                KeyEvent(keysym: 0xffe3, pressed: true, waitsForInputMethod: true), KeyEvent(keysym: 0xffe1, pressed: true),
                KeyEvent(keysym: 0x75, pressed: true, waitsForInputMethod: true), KeyEvent(keysym: 0x75, pressed: false),
                KeyEvent(keysym: 0xffe1, pressed: false), KeyEvent(keysym: 0xffe3, pressed: false),
            ] + "d55c".unicodeScalars.flatMap { PortalKeystrokes.tap(Int32($0.value)) }
                + PortalKeystrokes.tap(0x20, waitsForInputMethod: true))
        // An emoji beyond the Basic Multilingual Plane, a decomposed accent: one entry per scalar.
        #expect(
            PortalKeystrokes.characters(of: "😀").first?.suffix(12).filter(\.pressed).map(\.keysym)
                == "1f600 ".unicodeScalars.map { Int32($0.value) })
        #expect(PortalKeystrokes.characters(of: "e\u{301}").count == 2)
    }
}
