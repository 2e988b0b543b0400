/// A D-Bus type signature, validated against the specification's grammar and limits.
public struct Signature: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    /// Fails unless `rawValue` is a sequence of complete types within the spec's limits
    /// (255 bytes, 32 nested arrays, 32 nested structs).
    public init?(_ rawValue: String) {
        guard Signature.completeTypeRanges(of: rawValue) != nil else { return nil }
        self.rawValue = rawValue
    }

    /// For signatures written in the source: an invalid literal is a programming error.
    public init(stringLiteral value: String) {
        guard let signature = Signature(value) else { preconditionFailure("invalid signature \(value)") }
        self = signature
    }

    init(unchecked rawValue: String) { self.rawValue = rawValue }

    public static let empty = Signature(unchecked: "")

    public var description: String { rawValue }

    /// The single complete types this signature is made of: `"sa{sv}i"` → `s`, `a{sv}`, `i`.
    public var completeTypes: [Signature] {
        let bytes = Array(rawValue.utf8)
        return (Signature.completeTypeRanges(of: rawValue) ?? []).map {
            Signature(unchecked: String(decoding: bytes[$0], as: UTF8.self))
        }
    }

    /// True when this is exactly one complete type.
    public var isSingleCompleteType: Bool { Signature.completeTypeRanges(of: rawValue)?.count == 1 }

    static let basicCodes: Set<UInt8> = Set("ybnqiuxtdsogh".utf8)

    private static func completeTypeRanges(of string: String) -> [Range<Int>]? {
        let bytes = Array(string.utf8)
        guard bytes.count <= 255 else { return nil }
        var ranges: [Range<Int>] = []
        var index = 0
        while index < bytes.count {
            let start = index
            guard parseCompleteType(bytes, &index, arrays: 0, structs: 0) else { return nil }
            ranges.append(start..<index)
        }
        return ranges
    }

    private static func parseCompleteType(_ bytes: [UInt8], _ index: inout Int, arrays: Int, structs: Int) -> Bool {
        guard index < bytes.count else { return false }
        let code = bytes[index]
        index += 1
        if basicCodes.contains(code) || code == UInt8(ascii: "v") { return true }
        switch code {
        case UInt8(ascii: "a"):
            guard arrays < 32, index < bytes.count else { return false }
            if bytes[index] == UInt8(ascii: "{") {
                index += 1
                guard structs < 32, index < bytes.count, basicCodes.contains(bytes[index]) else { return false }
                index += 1
                guard parseCompleteType(bytes, &index, arrays: arrays + 1, structs: structs + 1),
                    index < bytes.count, bytes[index] == UInt8(ascii: "}")
                else { return false }
                index += 1
                return true
            }
            return parseCompleteType(bytes, &index, arrays: arrays + 1, structs: structs)
        case UInt8(ascii: "("):
            guard structs < 32, index < bytes.count, bytes[index] != UInt8(ascii: ")") else { return false }
            while index < bytes.count, bytes[index] != UInt8(ascii: ")") {
                guard parseCompleteType(bytes, &index, arrays: arrays, structs: structs + 1) else { return false }
            }
            guard index < bytes.count else { return false }
            index += 1
            return true
        default:
            return false
        }
    }
}
