/// One key going down or up, as `NotifyKeyboardKeysym` takes it.
struct KeyEvent: Equatable, Sendable {
    let keysym: Int32
    let pressed: Bool
    /// A press that changes the modifiers or happens under them (a capital, `"`, Ctrl+Shift+U): the input method
    /// must have passed on every earlier key before it, and this key before the modifiers change again. GNOME
    /// Shell hands each key to IBus and on to the window when IBus answers, with the modifiers as they are *then*:
    /// hurried, `"` arrived as `'` and the `00` before a `%` as `))`.
    var waitsForInputMethod = false
}

/// The key events that type a text through a keyboard the compositor maps with the user's own layout.
///
/// GNOME (mutter 43) and KWin drop a keysym that layout has no key for, silently: printable ASCII, newline and
/// tab go as their keysyms, which every Latin layout has; every other character goes as Ctrl+Shift+U, its code
/// point in hex and a space, the Unicode entry that GTK and IBus understand, whatever the layout.
enum PortalKeystrokes {
    static let shift: Int32 = 0xffe1
    static let control: Int32 = 0xffe3
    static let returnKey: Int32 = 0xff0d
    static let tab: Int32 = 0xff09
    static let space: Int32 = 0x20

    /// A harmless key to tap before the text: mutter drops the first key event of a session.
    static let warmUp = tap(shift)

    /// Ctrl+V, which pastes the clipboard in GTK and Qt entries.
    static let paste =
        [KeyEvent(keysym: control, pressed: true, waitsForInputMethod: true)] + tap(0x76, waitsForInputMethod: true)
        + [KeyEvent(keysym: control, pressed: false)]

    /// Whether `text` holds a character typed through the Unicode entry: one the layout may lack, which Qt clients
    /// do not take that way.
    static func needsUnicodeEntry(_ text: String) -> Bool {
        text.unicodeScalars.contains { events(for: $0).count > 2 }
    }

    /// The events of each character of `text`, one array per Unicode scalar, in order.
    static func characters(of text: String) -> [[KeyEvent]] {
        text.unicodeScalars.map(events(for:))
    }

    static func events(for scalar: Unicode.Scalar) -> [KeyEvent] {
        switch scalar {
        case "\n": return tap(returnKey)
        case "\t": return tap(tab)
        case "a"..."z", "0"..."9", " ", ",", ".": return tap(Int32(scalar.value))
        // On most layouts a Shift (or AltGr) level, which mutter presses for the keysym.
        case "!"..."~": return tap(Int32(scalar.value), waitsForInputMethod: true)
        default:
            let enterUnicode =
                [KeyEvent(keysym: control, pressed: true, waitsForInputMethod: true), KeyEvent(keysym: shift, pressed: true)]
                + tap(0x75, waitsForInputMethod: true)
                + [KeyEvent(keysym: shift, pressed: false), KeyEvent(keysym: control, pressed: false)]
            let digits = String(scalar.value, radix: 16).unicodeScalars.flatMap { tap(Int32($0.value)) }
            // The space ends the entry: IBus commits the character then, and a key sent meanwhile was lost ("wörld"
            // arrived as "wöld").
            return enterUnicode + digits + tap(space, waitsForInputMethod: true)
        }
    }

    static func tap(_ keysym: Int32, waitsForInputMethod: Bool = false) -> [KeyEvent] {
        [KeyEvent(keysym: keysym, pressed: true, waitsForInputMethod: waitsForInputMethod), KeyEvent(keysym: keysym, pressed: false)]
    }
}
