import DBus

/// SplitMix64: a generator of the test's own, seeded so that a failing run can be replayed
/// (`rand()` is shared by the whole test process, and other suites run beside this one).
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

/// Random D-Bus values of random types, valid as D-Bus has them (what libdbus lets a client send).
struct RandomValues {
    var random: SeededGenerator

    /// The deepest nesting D-Bus allows for arrays, and for structures.
    static let deepest = 32

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    mutating func count(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    /// A value of any type, containers at most `depth` deep.
    mutating func value(depth: Int = 3) -> Value {
        let kinds = depth > 0 ? 17 : 13
        switch count(0...(kinds - 1)) {
        case 13: return array(depth: depth)
        case 14: return dictionary(depth: depth)
        case 15: return .structure((0..<count(1...4)).map { _ in value(depth: depth - 1) })
        case 16: return .variant(value(depth: depth - 1))
        default: return basic()
        }
    }

    /// A value of a basic type (one that can key a dictionary).
    mutating func basic() -> Value {
        switch count(0...12) {
        case 0: .byte(.random(in: .min ... .max, using: &random))
        case 1: .boolean(.random(using: &random))
        case 2: .int16(.random(in: .min ... .max, using: &random))
        case 3: .uint16(.random(in: .min ... .max, using: &random))
        case 4: .int32(.random(in: .min ... .max, using: &random))
        case 5: .uint32(.random(in: .min ... .max, using: &random))
        case 6: .int64(.random(in: .min ... .max, using: &random))
        case 7: .uint64(.random(in: .min ... .max, using: &random))
        case 8:
            .double(
                [.nan, .infinity, -.infinity, 0, -0.0, .greatestFiniteMagnitude, .random(in: -1e9...1e9, using: &random)][count(0...6)])
        case 9: .objectPath(path())
        case 10: .signature(value(depth: 2).signature)
        default: .string(string())
        }
    }

    /// Another value of the same type as `model`: the elements of one array.
    mutating func value(like model: Value) -> Value {
        switch model {
        case .array(let element, let values):
            .array(element: element, values.isEmpty ? [] : (0..<count(0...3)).map { _ in value(like: values[0]) })
        case .dictionary(let key, let valueType, let entries):
            .dictionary(
                key: key, value: valueType,
                entries.isEmpty
                    ? []
                    : (0..<count(0...3)).map { _ in DictionaryEntry(key: value(like: entries[0].key), value: value(like: entries[0].value))
                    })
        case .structure(let fields): .structure(fields.map { value(like: $0) })
        case .variant: .variant(value(depth: 1))
        case .string: .string(string())
        case .objectPath: .objectPath(path())
        default: model
        }
    }

    private mutating func array(depth: Int) -> Value {
        let model = value(depth: depth - 1)
        let elements = chance(15) ? [] : [model] + (0..<count(0...5)).map { _ in value(like: model) }
        return .array(element: model.signature, elements)
    }

    private mutating func dictionary(depth: Int) -> Value {
        let key = basic()
        let model = value(depth: depth - 1)
        let entries = (0..<count(0...4)).map { _ in DictionaryEntry(key: value(like: key), value: value(like: model)) }
        return .dictionary(key: key.signature, value: model.signature, entries)
    }

    /// Printable, accented, emoji, markup, quotes, control characters (no NUL, which D-Bus strings cannot hold).
    mutating func string() -> String {
        let pieces = [
            "memo", "é", "ü", "한국어", "🎙️", "<b>", "&amp;", "'", "\"", "\\", "%s", "\n", "\t", "\u{1}", " ", "OR", "NEAR(", "*", "-", "nl-NL",
            "../..", "/tmp/x",
        ]
        return (0..<count(0...12)).map { _ in pieces[count(0...(pieces.count - 1))] }.joined()
    }

    /// A valid object path, sometimes one of the service's, sometimes a memo that does not exist.
    mutating func path() -> ObjectPath {
        switch count(0...3) {
        case 0: return ObjectPath("/org/notula/Notula1/Memos/\(count(0...999_999_999))")!
        case 1: return .root
        default:
            let elements = (0..<count(1...5)).map { _ in ["org", "notula", "Notula1", "Memos", "_", "a1", "Recorder"][count(0...6)] }
            return ObjectPath("/" + elements.joined(separator: "/"))!
        }
    }

    /// Arrays nested as deep as D-Bus allows, with an int inside.
    func deepArrays() -> Value {
        (1..<Self.deepest).reduce(Value.array(element: "i", [.int32(7)])) { inner, _ in .array(element: inner.signature, [inner]) }
    }

    /// Structures nested as deep as D-Bus allows.
    func deepStructures() -> Value {
        (1..<Self.deepest).reduce(Value.structure([.string("core")])) { inner, _ in .structure([inner, .byte(1)]) }
    }

    /// Variants within variants (D-Bus counts them towards its depth limit of 64 containers).
    func deepVariants() -> Value {
        (1..<Self.deepest).reduce(Value.variant(.string("core"))) { inner, _ in .variant(inner) }
    }

    /// A string of `megabytes` MB, or an array of as many int32s.
    func huge(megabytes: Int, asArray: Bool) -> Value {
        let bytes = megabytes * 1_000_000
        if asArray { return .array(element: "i", Array(repeating: .int32(42), count: bytes / 4)) }
        return .string(String(repeating: "x", count: bytes))
    }
}
