/// How a word sounds, roughly, in English spelling: its consonants as sounds (`ph` and `f` alike, `c` as `k` or `s`
/// by the vowel after it), voiced and voiceless pairs as one (a recogniser confuses `d` and `t` easily), vowels only
/// at the start, a sound repeated once. "Metoprolol" and "meta pro lol" have one key; "metro" another.
enum SoundKey {
    /// The key of `letters`: lowercase letters a–z (`letters(of:)`).
    static func of(_ letters: [UInt8]) -> [UInt8] {
        var key: [UInt8] = []
        var index = 0
        func letter(_ offset: Int) -> UInt8 {
            let at = index + offset
            return at >= 0 && at < letters.count ? letters[at] : 0
        }
        func add(_ sound: UInt8) { if key.last != sound { key.append(sound) } }
        if let first = letters.first, let second = letters.dropFirst().first,
            [("k", "n"), ("g", "n"), ("p", "n"), ("w", "r"), ("p", "s")].contains(where: {
                UInt8(ascii: $0.0) == first && UInt8(ascii: $0.1) == second
            })
        {
            index = 1
        } else if letters.starts(with: [c("o"), c("u")]), letters.count > 2, isVowel(letters[2]) {
            // French spelling: "Ouagadougou", "Ouellette" start as "wa", "we".
            add(c("w"))
            index = 2
        }
        while index < letters.count {
            let current = letters[index]
            let next = letter(1)
            var consumed = 1
            switch current {
            case _ where isVowel(current): if key.isEmpty { add(a) }
            case c("c"):
                if next == c("h") || next == c("k") {
                    add(next == c("h") && letter(2) != c("r") && letter(2) != c("l") ? c("x") : c("k"))
                    consumed = 2
                } else {
                    add([c("e"), c("i"), c("y")].contains(next) ? c("s") : c("k"))
                }
            case c("p"):
                if next == c("h") {
                    add(c("f"))
                    consumed = 2
                } else {
                    add(c("p"))
                }
            case c("s"):
                if next == c("h") {
                    add(c("x"))
                    consumed = 2
                } else if next == c("c") && letter(2) == c("h") {
                    add(c("s"))
                    add(c("k"))
                    consumed = 3
                } else {
                    add(c("s"))
                }
            case c("t"):
                if next == c("h") {
                    add(c("0"))
                    consumed = 2
                } else if next == c("i") && (letter(2) == c("o") || letter(2) == c("a")) {
                    add(c("x"))
                } else {
                    add(c("t"))
                }
            case c("g"):
                if next == c("h") {
                    consumed = 2
                } else {
                    add([c("e"), c("i"), c("y")].contains(next) ? c("j") : c("k"))
                }
            case c("h"): break
            case c("w"), c("y"): if isVowel(next) { add(current) }
            case c("x"):
                add(c("k"))
                add(c("s"))
            default: add(pairs[current] ?? current)
            }
            index += consumed
        }
        return key
    }

    /// A word's letters, lowercased, accents taken off the letters that have a plain form; nil when it holds
    /// anything but letters (a number, a mark inside it), which is left as it is.
    static func letters(of word: Substring) -> [UInt8]? {
        var letters: [UInt8] = []
        for character in word.lowercased() {
            if let ascii = character.asciiValue, ascii >= c("a"), ascii <= c("z") {
                letters.append(ascii)
            } else if let plain = plainForms[character] {
                letters += plain.utf8
            } else if character != "'" && character != "-" {
                return nil
            }
        }
        return letters
    }

    private static let a = c("a")

    private static func c(_ character: Unicode.Scalar) -> UInt8 { UInt8(ascii: character) }

    private static func isVowel(_ letter: UInt8) -> Bool { [c("a"), c("e"), c("i"), c("o"), c("u"), c("y")].contains(letter) }

    /// One sound for each voiced and voiceless pair, and the letters that sound as another.
    private static let pairs: [UInt8: UInt8] = [
        c("b"): c("p"), c("d"): c("t"), c("v"): c("f"), c("z"): c("s"), c("q"): c("k"),
    ]

    private static let plainForms: [Character: String] = [
        "à": "a", "á": "a", "â": "a", "ä": "a", "å": "a", "ã": "a", "æ": "ae", "ç": "c", "è": "e", "é": "e", "ê": "e",
        "ë": "e", "ì": "i", "í": "i", "î": "i", "ï": "i", "ñ": "n", "ò": "o", "ó": "o", "ô": "o", "ö": "o", "õ": "o",
        "ø": "o", "œ": "oe", "ù": "u", "ú": "u", "û": "u", "ü": "u", "ý": "y", "ÿ": "y", "ß": "ss",
    ]
}
