import DBus
import Foundation
import NotulaTestSupport
import Testing

/// An object that answers with what it was sent, to round-trip values through a real dbus-daemon.
private func echoInterface() -> Interface {
    Interface(
        "org.notula.Test.Echo",
        methods: [
            Method("Echo", inputs: [Argument("value", "v")], outputs: [Argument("value", "v")]) { call in .now(call.body) },
            Method(
                "EchoBasics", inputs: [Argument("all", "(ybnqiuxtdsog)")], outputs: [Argument("all", "(ybnqiuxtdsog)")]
            ) { call in .now(call.body) },
            Method("Never", outputs: [Argument("value", "s")]) { _ in
                .later { () throws(BusError) in
                    for await _ in AsyncStream<Void>(unfolding: { nil }) {}
                    throw BusError.failed("never")
                }
            },
            Method("Fail") { _ throws(BusError) in throw BusError(ErrorName("org.notula.Test.Error.Custom"), "as asked") },
        ],
        properties: [
            Property("Name", "s") { .string("echo") },
            Property("Count", "u", getter: { .uint32(3) }, setter: { _ in }),
        ],
        signals: [SignalDeclaration("Said", [Argument("text", "s")])])
}

private let echoPath = ObjectPath("/org/notula/Test/Echo")!

/// Two connections to one private bus: `server` exports the echo object, `client` calls it.
private struct EchoPair {
    let daemon: PrivateBus
    let server: Bus
    let client: Bus

    static func make() async throws -> EchoPair {
        let daemon = try PrivateBus()
        let server = try await daemon.connect()
        await server.export(echoPath, interfaces: [echoInterface()])
        return EchoPair(daemon: daemon, server: server, client: try await daemon.connect())
    }

    func call(
        _ member: MemberName, interface: InterfaceName? = "org.notula.Test.Echo", path: ObjectPath = echoPath, _ arguments: [Value] = [],
        timeout: Duration = .seconds(5)
    ) async throws -> Message {
        try await client.call(
            MethodCall(
                destination: BusName(await server.uniqueName), path: path, interface: interface, member: member, arguments: arguments),
            timeout: timeout)
    }

    func close() async {
        await client.close()
        await server.close()
    }
}

@Suite("Marshalling through a real bus")
struct MarshallingTests {
    static let samples: [Value] = [
        .byte(255), .boolean(true), .boolean(false), .int16(-32768), .uint16(65535), .int32(Int32.min), .uint32(UInt32.max),
        .int64(Int64.min), .uint64(UInt64.max), .double(-0.5), .double(Double.greatestFiniteMagnitude), .string(""),
        .string("Zoë — 日本語 🎙"), .objectPath(ObjectPath("/org/notula/Notula1/Memos/1")!), .signature("a{sv}(ii)"),
        .array(element: "s", []), .scalars(.bytes(Array(0...255))),
        .array(element: "ai", [.scalars(.int32s([1, 2])), .scalars(.int32s([]))]),
        .scalars(.booleans([true, false])), .scalars(.int16s([.min, -1])), .scalars(.uint16s([.max])), .scalars(.uint32s([0, .max])),
        .scalars(.int64s([.min])), .scalars(.uint64s([.max])),
        .dictionary(
            key: "s", value: "v",
            [
                DictionaryEntry(key: .string("State"), value: .variant(.string("idle"))),
                DictionaryEntry(key: .string("Nested"), value: .variant(.variant(.scalars(.doubles([1]))))),
            ]),
        .dictionary(
            key: "o", value: "a{sv}",
            [
                DictionaryEntry(key: .objectPath(ObjectPath("/a")!), value: .dictionary(key: "s", value: "v", []))
            ]),
        .structure([.string("word"), .double(0.25), .structure([.boolean(true), .array(element: "(ddsd)", [])])]),
        .array(element: "(ddsd)", [.structure([.double(0.1), .double(0.4), .string("hello"), .double(0.98)])]),
        .variant(.int32(5)),
    ]

    @Test("values round-trip inside a variant", arguments: samples)
    func roundTrip(_ value: Value) async throws {
        let pair = try await EchoPair.make()
        let reply = try await pair.call("Echo", [.variant(value)])
        #expect(reply.body == [.variant(value)])
        #expect(reply.signature == "v")
        await pair.close()
    }

    @Test func anArrayOfNumbersWrittenBoxedIsReadUnboxed() async throws {
        let pair = try await EchoPair.make()
        let boxed = Value.array(element: "i", [.int32(-1), .int32(Int32.max)])
        #expect(try await pair.call("Echo", [.variant(boxed)]).body == [.variant(.scalars(.int32s([-1, Int32.max])))])
        #expect(try [Int32](dbusValue: .scalars(.int32s([7]))) == [7])
        #expect(throws: BusError.self) { try [UInt32](dbusValue: .scalars(.int32s([7]))) }
        await pair.close()
    }

    /// An empty array casts to an array of any element type: its element type alone says what it is on the wire.
    @Test func anEmptyArrayKeepsItsElementTypeBothWays() async throws {
        #expect([String]().dbusValue == .array(element: "s", []))
        #expect([UInt8]().dbusValue == .scalars(.bytes([])))
        #expect([Int32]().dbusValue == .scalars(.int32s([])))
        #expect(throws: BusError.self) { try [String](dbusValue: .scalars(.bytes([]))) }
        #expect(throws: BusError.self) { try [UInt32](dbusValue: .scalars(.int32s([]))) }
        let pair = try await EchoPair.make()
        #expect(try await pair.call("Echo", [.variant([String]().dbusValue)]).body == [.variant(.array(element: "s", []))])
        await pair.close()
    }

    @Test func everyBasicTypeAsArguments() async throws {
        let pair = try await EchoPair.make()
        let all = Value.structure([
            .byte(1), .boolean(true), .int16(-2), .uint16(3), .int32(-4), .uint32(5), .int64(-6), .uint64(7), .double(8.5),
            .string("nine"), .objectPath(ObjectPath("/ten")!), .signature("as"),
        ])
        #expect(try await pair.call("EchoBasics", [all]).body == [all])
        await pair.close()
    }

    @Test func deepestNestingTheSpecAllows() async throws {
        var value = Value.scalars(.int32s([1]))
        for _ in 0..<31 { value = .array(element: value.signature, [value]) }
        for _ in 0..<31 { value = .structure([value]) }
        let pair = try await EchoPair.make()
        #expect(try await pair.call("Echo", [.variant(value)]).body == [.variant(value)])
        await pair.close()
    }

    @Test func fileDescriptorsTravel() async throws {
        let pair = try await EchoPair.make()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("notula-fd-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data("fd".utf8)))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let handle = FileHandle(forReadingAtPath: file)!
        let sent = FileDescriptor(owning: dup(handle.fileDescriptor))
        let reply = try await pair.call("Echo", [.variant(.unixFD(sent))])
        guard case .variant(.unixFD(let received))? = reply.body.first else { Issue.record("no descriptor back"); return }
        var a = stat(), b = stat()
        fstat(sent.rawValue, &a)
        fstat(received.rawValue, &b)
        #expect(a.st_ino == b.st_ino && received.rawValue != sent.rawValue)
        await pair.close()
    }

    @Test func invalidValuesAreRefusedBeforeLibdbusSeesThem() async throws {
        let pair = try await EchoPair.make()
        var tooDeep = Value.int32(1)
        for _ in 0..<70 { tooDeep = .variant(tooDeep) }
        let refused: [Value] = [
            .array(element: "s", [.string("a"), .int32(1)]),
            .string("nul\u{0}inside"),
            .structure([]),
            .dictionary(key: "s", value: "s", [DictionaryEntry(key: .int32(1), value: .string("x"))]),
            tooDeep,
            .scalars(.int32s(Array(repeating: 0, count: (1 << 24) + 1))),  // past the spec's 64 MiB for one array
        ]
        for value in refused {
            await #expect(throws: BusError.self) { try await pair.call("Echo", [.variant(value)]) }
        }
        #expect(try await pair.call("Echo", [.variant(.string("still up"))]).body == [.variant(.string("still up"))])
        await pair.close()
    }
}

@Suite("Exported objects answer every message")
struct DispatchTests {
    private func errorName(_ body: () async throws -> Message) async -> String? {
        do {
            _ = try await body()
            return nil
        } catch let error as BusError {
            return error.name.rawValue
        } catch {
            return "\(error)"
        }
    }

    @Test func badCallsGetTheRightErrors() async throws {
        let pair = try await EchoPair.make()
        #expect(await errorName { try await pair.call("Echo", [.string("not a variant")]) } == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(await errorName { try await pair.call("Echo") } == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(await errorName { try await pair.call("Nope") } == "org.freedesktop.DBus.Error.UnknownMethod")
        #expect(
            await errorName { try await pair.call("Echo", interface: "org.notula.Test.Other", [.variant(.byte(1))]) }
                == "org.freedesktop.DBus.Error.UnknownInterface")
        #expect(
            await errorName { try await pair.call("Echo", path: ObjectPath("/no/such")!, [.variant(.byte(1))]) }
                == "org.freedesktop.DBus.Error.UnknownObject")
        #expect(await errorName { try await pair.call("Fail") } == "org.notula.Test.Error.Custom")
        let properties: InterfaceName = "org.freedesktop.DBus.Properties"
        #expect(
            await errorName { try await pair.call("Get", interface: properties, [.string("org.notula.Test.Echo"), .string("Nope")]) }
                == "org.freedesktop.DBus.Error.UnknownProperty")
        #expect(
            await errorName { try await pair.call("Get", interface: properties, [.string("org.notula.Test.Nope"), .string("Name")]) }
                == "org.freedesktop.DBus.Error.UnknownInterface")
        #expect(
            await errorName {
                try await pair.call(
                    "Set", interface: properties, [.string("org.notula.Test.Echo"), .string("Name"), .variant(.string("x"))])
            } == "org.freedesktop.DBus.Error.PropertyReadOnly")
        #expect(
            await errorName {
                try await pair.call(
                    "Set", interface: properties, [.string("org.notula.Test.Echo"), .string("Count"), .variant(.string("x"))])
            } == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(
            await errorName { try await pair.call("Get", interface: properties, [.string("org.notula.Test.Echo")]) }
                == "org.freedesktop.DBus.Error.InvalidArgs")
        #expect(await errorName { try await pair.call("Ping", interface: "org.freedesktop.DBus.Peer") } == nil)
        await pair.close()
    }

    @Test func callWithoutInterfaceFindsTheMethod() async throws {
        let pair = try await EchoPair.make()
        #expect(try await pair.call("Echo", interface: nil, [.variant(.byte(9))]).body == [.variant(.byte(9))])
        await pair.close()
    }

    @Test func propertiesReadAndWrite() async throws {
        let pair = try await EchoPair.make()
        let properties: InterfaceName = "org.freedesktop.DBus.Properties"
        let all = try await pair.call("GetAll", interface: properties, [.string("org.notula.Test.Echo")])
        #expect(try all.argument(0, as: [String: Variant].self) == ["Name": Variant("echo"), "Count": Variant(UInt32(3))])
        let one = try await pair.call("Get", interface: properties, [.string(""), .string("Count")])
        #expect(one.body == [.variant(.uint32(3))])
        #expect(
            try await pair.call("Set", interface: properties, [.string("org.notula.Test.Echo"), .string("Count"), .variant(.uint32(4))])
                .body == [])
        await pair.close()
    }

    @Test func introspectionListsInterfacesAndChildren() async throws {
        let pair = try await EchoPair.make()
        let own = try await pair.call("Introspect", interface: "org.freedesktop.DBus.Introspectable").argument(0, as: String.self)
        #expect(own.contains("<interface name=\"org.notula.Test.Echo\">"))
        #expect(own.contains("<method name=\"Echo\">"))
        #expect(own.contains("<property name=\"Count\" type=\"u\" access=\"readwrite\"/>"))
        #expect(own.contains("<signal name=\"Said\">"))
        let parent = try await pair.call("Introspect", interface: "org.freedesktop.DBus.Introspectable", path: ObjectPath("/org/notula")!)
        #expect(try parent.argument(0, as: String.self).contains("<node name=\"Test\"/>"))
        await pair.close()
    }

    @Test func manyCallsInFlightEachGetTheirOwnReply() async throws {
        let pair = try await EchoPair.make()
        let client = pair.client
        let destination = BusName(await pair.server.uniqueName)
        let sums = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<1000 {
                group.addTask {
                    let reply = try await client.call(
                        MethodCall(
                            destination: destination, path: echoPath, interface: "org.notula.Test.Echo", member: "Echo",
                            arguments: [.variant(.int32(Int32(index)))]))
                    return reply.body == [.variant(.int32(Int32(index)))]
                }
            }
            return try await group.reduce(into: 0) { count, matched in count += matched ? 1 : 0 }
        }
        #expect(sums == 1000)
        await pair.close()
    }

    @Test func deferredRepliesTimeOutOnTheClientSide() async throws {
        let pair = try await EchoPair.make()
        await #expect(throws: BusError.self) { try await pair.call("Never", timeout: .milliseconds(200)) }
        #expect(try await pair.call("Echo", [.variant(.byte(1))]).body == [.variant(.byte(1))])
        await pair.close()
    }

    @Test func signalsReachSubscribersInOrder() async throws {
        let pair = try await EchoPair.make()
        let said = try await pair.client.signals(matching: MatchRule(path: echoPath, interface: "org.notula.Test.Echo", member: "Said"))
        for word in ["one", "two", "three"] {
            try await pair.server.emit(path: echoPath, interface: "org.notula.Test.Echo", member: "Said", arguments: [.string(word)])
        }
        var heard: [String] = []
        for await message in said {
            heard.append(try message.argument(0))
            if heard.count == 3 { break }
        }
        #expect(heard == ["one", "two", "three"])
        await pair.close()
    }

    @Test func propertiesChangedCarriesCurrentValues() async throws {
        let pair = try await EchoPair.make()
        let changes = try await pair.client.signals(
            matching: MatchRule(path: echoPath, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged"))
        await pair.server.emitPropertiesChanged(path: echoPath, interface: "org.notula.Test.Echo", names: ["Name"])
        var iterator = changes.makeAsyncIterator()
        let message = try #require(await iterator.next())
        #expect(try message.argument(0, as: String.self) == "org.notula.Test.Echo")
        #expect(try message.argument(1, as: [String: Variant].self) == ["Name": Variant("echo")])
        #expect(try message.argument(2, as: [String].self) == [])
        await pair.close()
    }

    @Test func namesAreRequestedAndOwned() async throws {
        let pair = try await EchoPair.make()
        #expect(try await pair.server.requestName("org.notula.Test") == .primaryOwner)
        #expect(try await pair.client.requestName("org.notula.Test") == .exists)
        #expect(try await pair.client.owner(of: "org.notula.Test") == (await pair.server.uniqueName))
        #expect(try await pair.client.owner(of: "org.notula.Nobody") == nil)
        await pair.close()
    }
}
