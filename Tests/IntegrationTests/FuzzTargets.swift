import DBus
import NotulaContract
import NotulaTestSupport

/// A method the service exports, as its introspection tells it: where, and the types it takes.
struct FuzzMethod {
    /// The name it is reached through: notulad's own, or the tray's or the media player's.
    let destination: BusName
    let path: ObjectPath
    let interface: InterfaceName
    let member: MemberName
    let inputTypes: [Signature]
}

/// A property the service exports, as its introspection tells it.
struct FuzzProperty {
    let destination: BusName
    let path: ObjectPath
    let interface: InterfaceName
    let name: String
    let type: Signature
}

/// Every method and property of the objects at `paths` of `destination`, read from their introspection, so the fuzz
/// reaches whatever is exported there (the tray's dbusmenu, MPRIS, the standard interfaces) with
/// arguments of the types each member takes. A path with no object is left out.
func fuzzTargets(of service: ServiceUnderTest, at paths: [ObjectPath], on destination: BusName = NotulaBus.name) async throws -> (
    [FuzzMethod], [FuzzProperty]
) {
    var methods: [FuzzMethod] = []
    var properties: [FuzzProperty] = []
    let interfaceTags = try Regex(#"<interface name="([^"]+)">"#)
    for path in paths {
        let introspect = MethodCall(destination: destination, path: path, interface: "org.freedesktop.DBus.Introspectable", member: "Introspect")
        guard let reply = try? await service.client.call(introspect) else { continue }
        let xml = try reply.argument(0, as: String.self)
        for match in xml.matches(of: interfaceTags) {
            guard let name = match.output[1].substring, let interface = InterfaceName(String(name)) else { continue }
            for line in try members(of: interface.rawValue, in: xml) {
                let words = line.split(separator: " ", maxSplits: 1).map(String.init)
                guard words.count == 2 else { continue }
                if words[0] == "method", let open = words[1].firstIndex(of: "(") {
                    let inputs = words[1][words[1].index(after: open)...].dropLast().components(separatedBy: ", ")
                        .filter { $0.hasPrefix("in ") }.compactMap { Signature(String($0.split(separator: " ")[1])) }
                    guard let member = MemberName(String(words[1][..<open])) else { continue }
                    methods.append(FuzzMethod(destination: destination, path: path, interface: interface, member: member, inputTypes: inputs))
                } else if words[0] == "property" {
                    let parts = words[1].split(separator: " ")
                    guard parts.count >= 2, let type = Signature(String(parts[1])) else { continue }
                    properties.append(FuzzProperty(destination: destination, path: path, interface: interface, name: String(parts[0]), type: type))
                }
            }
        }
    }
    return (methods, properties)
}

/// Every exported method with integer arguments, called once for each edge value in each such argument
/// (the other integers 0, as an item or a page that exists; the rest random of their types), and every integer property set to each edge: what a random draw
/// reaches only now and then, such as `GetLayout(0, Int32.min, [])`.
func edgeCalls(_ methods: [FuzzMethod], _ properties: [FuzzProperty], _ values: inout RandomValues) -> [MethodCall] {
    var calls: [MethodCall] = []
    for method in methods {
        for (index, type) in method.inputTypes.enumerated() where RandomValues.isInteger(type) {
            for edge in RandomValues.edges {
                let arguments = method.inputTypes.enumerated().map { other, otherType in
                    other == index
                        ? RandomValues.integer(type, edge)
                        : RandomValues.isInteger(otherType) ? RandomValues.integer(otherType, 0) : values.value(of: otherType)
                }
                calls.append(
                    MethodCall(
                        destination: method.destination, path: method.path, interface: method.interface, member: method.member,
                        arguments: arguments))
            }
        }
    }
    for property in properties where RandomValues.isInteger(property.type) {
        for edge in RandomValues.edges {
            calls.append(
                MethodCall(
                    destination: property.destination, path: property.path, interface: "org.freedesktop.DBus.Properties", member: "Set",
                    arguments: [
                        .string(property.interface.rawValue), .string(property.name), .variant(RandomValues.integer(property.type, edge)),
                    ]))
        }
    }
    return calls
}

extension RandomValues {
    /// The integers at the edges of their types, which handlers that count or subtract get wrong.
    static let edges: [Int64] = [0, -1, 1, Int64(Int32.min), Int64(Int32.max), Int64(UInt32.max), .min, .max]

    static func isInteger(_ type: Signature) -> Bool { ["y", "n", "q", "i", "u", "x", "t"].contains(type.rawValue) }

    /// `edge` as an integer of `type`, its bits cut to the width of the type.
    static func integer(_ type: Signature, _ edge: Int64) -> Value {
        switch type.rawValue {
        case "y": .byte(UInt8(truncatingIfNeeded: edge))
        case "n": .int16(Int16(truncatingIfNeeded: edge))
        case "q": .uint16(UInt16(truncatingIfNeeded: edge))
        case "i": .int32(Int32(truncatingIfNeeded: edge))
        case "u": .uint32(UInt32(truncatingIfNeeded: edge))
        case "t": .uint64(UInt64(truncatingIfNeeded: edge))
        default: .int64(edge)
        }
    }

    private mutating func edgy<T: FixedWidthInteger>(_ type: T.Type) -> T {
        let edge = Self.edges[count(0...(Self.edges.count - 1))]
        return chance(70) ? T(truncatingIfNeeded: edge) : T.random(in: .min ... .max, using: &random)
    }

    /// A value of `type`: integers mostly at their edges, and now and then an array of scalars
    /// large enough to make quadratic work show. No long array holds another: a long array of long
    /// `ay` (the tray's `a(iiay)`) would be 5 GB to build.
    mutating func value(of type: Signature, longArrays: Bool = true) -> Value {
        let code = type.rawValue.first ?? "s"
        let inner = String(type.rawValue.dropFirst())
        switch code {
        case "y": return .byte(edgy(UInt8.self))
        case "b": return .boolean(chance(50))
        case "n": return .int16(edgy(Int16.self))
        case "q": return .uint16(edgy(UInt16.self))
        case "i": return .int32(edgy(Int32.self))
        case "u": return .uint32(edgy(UInt32.self))
        case "x": return .int64(edgy(Int64.self))
        case "t": return .uint64(edgy(UInt64.self))
        case "d": return .double([.nan, .infinity, -.infinity, 0, -1, .greatestFiniteMagnitude, 1e30][count(0...6)])
        case "o": return .objectPath(path())
        case "g": return .signature(value(depth: 2).signature)
        case "v": return .variant(value(depth: 2))
        case "(":
            let fields = (Signature(String(inner.dropLast())) ?? .empty).completeTypes
            return .structure(fields.map { value(of: $0, longArrays: longArrays) })
        case "a" where inner.hasPrefix("{"):
            let pair = (Signature(String(inner.dropFirst().dropLast())) ?? .empty).completeTypes
            let entries = (0..<count(0...4)).map { _ in
                DictionaryEntry(key: value(of: pair[0]), value: value(of: pair[1], longArrays: longArrays))
            }
            return .dictionary(key: pair[0], value: pair[1], entries)
        case "a":
            let element = Signature(inner) ?? "s"
            let scalar = inner.count == 1 && "ybnqiuxtd".contains(inner)
            let long = longArrays && chance(3)
            let length = long ? (scalar ? 250_000 : 20_000) : count(0...4)
            let model = value(of: element, longArrays: longArrays && !long)
            // Many copies of one element, or as many distinct ones: repeated ids and a million fresh ones.
            return .array(element: element, (0..<length).map { index in chance(50) ? model : distinct(model, index) })
        default: return .string(string())
        }
    }

    private mutating func distinct(_ model: Value, _ index: Int) -> Value {
        switch model {
        case .int32: .int32(Int32(truncatingIfNeeded: index))
        case .uint32: .uint32(UInt32(truncatingIfNeeded: index))
        case .string: .string("\(index)")
        case .structure(let fields) where !fields.isEmpty: .structure([distinct(fields[0], index)] + fields.dropFirst())
        default: model
        }
    }
}
