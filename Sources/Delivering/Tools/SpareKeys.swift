import Synchronization

/// Keys of the X keyboard map that nothing uses, bound to the characters of a text that the layout has no key for
/// before xdotool types it, and left bound afterwards. xdotool would otherwise bind a spare key for each such
/// character and unbind it right after pressing it, and a client that reads the key after that drops the character.
/// A key bound for an earlier text is bound again only a while after that text was typed: bound again at once, a
/// busy xterm read the earlier text's keys as the new characters.
final class SpareKeys: Sendable {
    /// One for the process, as the keys it binds stay bound in the X server beyond any one target.
    static let shared = SpareKeys()

    /// How long after a text was typed its keys may be bound to other characters: time for a busy client to read them.
    static let settleTime = Duration.seconds(1)

    private struct Binding {
        let keysym: UInt32
        var lastTyped: ContinuousClock.Instant
    }

    /// The keys bound so far, by keycode, by display.
    private let bound = Mutex<[String: [Int: Binding]]>([:])

    /// Binds each character of `text` that the layout has no key for to a key of its own, with `xmodmap`.
    /// - Throws: `DeliveryError` when xmodmap fails or hangs, or there are fewer spare keys than such characters.
    func bind(charactersOf text: String, xmodmap: HelperProgram, environment: [String: String], timeLimit: Duration)
        async throws(DeliveryError)
    {
        let nonASCII = Set(text.unicodeScalars.filter { !$0.isASCII })
        guard !nonASCII.isEmpty else { return }
        let table = try await xmodmap.run(["-pk"], input: "", environment: environment, timeLimit: timeLimit)
        guard table.status == 0 else { throw DeliveryError("xmodmap could not read the keyboard map: \(table.errorOutput)") }
        let keymap = KeyboardMap(xmodmapTable: table.output)
        let missing = nonASCII.filter { !keymap.hasKey(for: $0) }.sorted { $0.value < $1.value }
        guard !missing.isEmpty else { return }
        // A key of ours may be bound again when it still holds what it was given (a new layout may have taken it
        // since) and types none of this text's characters; the longest untyped first.
        let display = environment["DISPLAY"] ?? ""
        let ours = bound.withLock { $0[display] ?? [:] }
            .filter { keymap.holdsOnly($0.value.keysym, at: $0.key) && !keymap.isNeeded($0.key, by: nonASCII) }
            .sorted { $0.value.lastTyped < $1.value.lastTyped }
        let unused = keymap.unusedKeycodes.sorted(by: >)
        guard missing.count <= unused.count + ours.count else {
            throw DeliveryError(
                "The text holds \(missing.count) characters the keyboard layout has no key for, more than the "
                    + "\(unused.count + ours.count) spare keys X offers to type them with.")
        }
        let reused = ours.prefix(max(0, missing.count - unused.count))
        if let latest = reused.map(\.value.lastTyped).max() {
            do { try await Task.sleep(until: latest + Self.settleTime) } catch {
                throw DeliveryError("Typing was stopped: the delivery was cancelled.")
            }
        }
        let bindings = zip(missing, unused + reused.map(\.key)).map { character, keycode in
            let keysym = "U" + String(character.value, radix: 16, uppercase: true)
            return (keycode, "keycode \(keycode) = \(keysym) \(keysym)")
        }
        let result = try await xmodmap.run(bindings.flatMap { ["-e", $0.1] }, input: "", environment: environment, timeLimit: timeLimit)
        guard result.status == 0 else { throw DeliveryError("xmodmap could not bind keys to type with: \(result.errorOutput)") }
        bound.withLock { bound in
            for (character, (keycode, _)) in zip(missing, bindings) {
                bound[display, default: [:]][keycode] = Binding(keysym: KeyboardMap.keysym(for: character), lastTyped: .now)
            }
        }
    }

    /// Notes that `text` was typed on `display` just now: its keys may not be bound again for a while.
    func typed(_ text: String, on display: String) {
        let keysyms = Set(text.unicodeScalars.map(KeyboardMap.keysym(for:)))
        bound.withLock { bound in
            for (keycode, binding) in bound[display] ?? [:] where keysyms.contains(binding.keysym) {
                bound[display]?[keycode]?.lastTyped = .now
            }
        }
    }
}

/// The keysyms of each keycode, read from `xmodmap -pk`: lines of a keycode and its keysyms as `0x00e9 (eacute)`.
struct KeyboardMap {
    private let keysyms: [Int: Set<UInt32>]

    init(xmodmapTable: String) {
        var keysyms: [Int: Set<UInt32>] = [:]
        for line in xmodmapTable.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let first = words.first, let keycode = Int(first) else { continue }
            keysyms[keycode] = Set(
                words.dropFirst().compactMap { $0.hasPrefix("0x") ? UInt32($0.dropFirst(2), radix: 16) : nil }.filter { $0 != 0 })
        }
        self.keysyms = keysyms
    }

    /// The keycodes with no keysym.
    var unusedKeycodes: Set<Int> { Set(keysyms.filter { $0.value.isEmpty }.keys) }

    /// Whether a key types `character`: its Latin-1 keysym (the code point) or its Unicode one (0x1000000 + it).
    /// Other legacy keysyms (Cyrillic, EuroSign) are not recognized: such a character gets a spare key as well.
    func hasKey(for character: Unicode.Scalar) -> Bool {
        keysyms.values.contains { !$0.isDisjoint(with: Self.recognizedKeysyms(for: character)) }
    }

    /// Whether `keysym` is all that `keycode` types.
    func holdsOnly(_ keysym: UInt32, at keycode: Int) -> Bool { keysyms[keycode] == [keysym] }

    /// The keysym `xmodmap` gives for `U` and the code point: the code point itself for Latin-1.
    static func keysym(for character: Unicode.Scalar) -> UInt32 {
        character.value <= 0xff ? character.value : 0x0100_0000 | character.value
    }

    /// Whether `keycode` types one of `characters`.
    func isNeeded(_ keycode: Int, by characters: Set<Unicode.Scalar>) -> Bool {
        characters.contains { !(keysyms[keycode] ?? []).isDisjoint(with: Self.recognizedKeysyms(for: $0)) }
    }

    private static func recognizedKeysyms(for character: Unicode.Scalar) -> Set<UInt32> {
        character.value <= 0xff ? [character.value, 0x0100_0000 | character.value] : [0x0100_0000 | character.value]
    }
}
