import DBus
import Testing

@Suite("Validated names and signatures")
struct NameAndSignatureTests {
    @Test(arguments: ["/", "/org/notula/Notula1", "/a_b/C9", "/0"])
    func validPaths(_ path: String) { #expect(ObjectPath(path) != nil) }

    @Test(arguments: ["", "org", "//", "/a/", "/a//b", "/a-b", "/a.b", "/é"])
    func invalidPaths(_ path: String) { #expect(ObjectPath(path) == nil) }

    @Test func interfaceAndErrorNames() {
        let valid = ["org.notula.Notula1.Recorder", "a.b", "org._x.Y9"]
        let invalid = ["org", "org..x", "org.1x", "org.a-b", ".org.x", "org.x.", String(repeating: "a.", count: 128) + "a"]
        #expect(valid.allSatisfy { InterfaceName($0) != nil && ErrorName($0) != nil })
        #expect(invalid.allSatisfy { InterfaceName($0) == nil && ErrorName($0) == nil })
    }

    @Test func busNames() {
        #expect(["org.notula.Notula1", ":1.42", "org.a-b.c", ":1.0-x"].allSatisfy { BusName($0) != nil })
        #expect(["org", ":", "org..a", "1org.a", ":1..2"].allSatisfy { BusName($0) == nil })
    }

    @Test func memberNames() {
        #expect(["Toggle", "_x", "Get2"].allSatisfy { MemberName($0) != nil })
        #expect(["9Lives", "A.B", "", "a-b", String(repeating: "a", count: 256)].allSatisfy { MemberName($0) == nil })
    }

    @Test(arguments: ["", "s", "a{sv}", "a(ii)as", "(y(b(n)))", "aav", "ybnqiuxtdsogh", "a{oa{sa{sv}}}"])
    func validSignatures(_ signature: String) { #expect(Signature(signature) != nil) }

    @Test(arguments: ["a", "(", "()", "a{vs}", "a{s}", "{sv}", "z", "(i", "a{ss", "a{(s)s}"])
    func invalidSignatures(_ signature: String) { #expect(Signature(signature) == nil) }

    @Test func signatureLimits() {
        #expect(Signature(String(repeating: "a", count: 32) + "y") != nil)
        #expect(Signature(String(repeating: "a", count: 33) + "y") == nil)
        #expect(Signature(String(repeating: "(", count: 32) + "y" + String(repeating: ")", count: 32)) != nil)
        #expect(Signature(String(repeating: "(", count: 33) + "y" + String(repeating: ")", count: 33)) == nil)
        #expect(Signature(String(repeating: "y", count: 255)) != nil)
        #expect(Signature(String(repeating: "y", count: 256)) == nil)
    }

    @Test func completeTypes() {
        #expect(Signature("sa{sv}i(ox)").completeTypes == ["s", "a{sv}", "i", "(ox)"])
    }

    @Test func staticSignatures() {
        #expect([String: Variant].dbusSignature == "a{sv}")
        #expect([[UInt8]].dbusSignature == "aay")
        #expect(DBusStruct<String, Int32>.dbusSignature == "(si)")
        #expect([DBusStruct<Double, Double, String, Double>].dbusSignature == "a(ddsd)")
        #expect([ObjectPath: [String: Variant]].dbusSignature == "a{oa{sv}}")
    }

    @Test func typedValuesConvertBothWays() throws {
        let dictionary: [String: Variant] = ["State": Variant("idle"), "Elapsed": Variant(1.5)]
        #expect(try [String: Variant](dbusValue: dictionary.dbusValue) == dictionary)
        let pair = DBusStruct("word", Int32(7))
        let back = try DBusStruct<String, Int32>(dbusValue: pair.dbusValue)
        #expect(back.fields.0 == "word" && back.fields.1 == 7)
        #expect(throws: BusError.self) { try Int32(dbusValue: .string("7")) }
        #expect(throws: BusError.self) { try [String](dbusValue: Value.array(element: "i", [.int32(1)])) }
    }
}
