import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import TestPasses
import Testing

/// One message of 30 MiB (the bus lets through up to its own limit: 32 MiB on a system bus) must cost
/// notulad no more than a little memory when nobody there takes it: calls are refused on their header,
/// signals no subscription wants are dropped, both without reading the body.
@Suite("A big message nobody takes costs notulad no memory", .serialized, .tags(.reliability))
struct BigMessageTests {
    static let size = 30 << 20
    /// 30 MiB of bytes, which are read unboxed anyway.
    static let bytes = Value.scalars(.bytes(Array(repeating: 0x2A, count: size)))
    /// 30 MiB of empty strings (8 bytes each on the wire), each a value of its own once read.
    static let strings = Value.array(element: "s", Array(repeating: .string(""), count: size / 8))
    /// What one message may add to the peak: libdbus's own two copies of it (the buffer it is read into, and
    /// the message it is copied to), and 20 MB for notulad.
    static let allowance = 2 * size + 20_000_000

    @Test func callsToAnUnknownMemberAMethodWithoutArgumentsOrAPropertyOfAnotherTypeAreRefusedUnread() async throws {
        let service = try await ServiceUnderTest.start()
        _ = try await service.property(.state)
        let idle = try await service.peakResidentBytes()

        await #expect(throws: BusError.self) {
            try await service.call(NotulaBus.recorderPath, NotulaBus.recorderInterface, "NoSuchMethod", [Self.bytes])
        }
        let afterUnknown = try await service.peakResidentBytes()
        await #expect(throws: BusError.self) {
            try await service.recorder(.toggle, [Self.strings])
        }
        let afterToggle = try await service.peakResidentBytes()
        await #expect(throws: BusError.self) {
            try await service.call(
                NotulaBus.recorderPath, "org.freedesktop.DBus.Properties", "Set",
                [
                    .string(NotulaBus.recorderInterface.rawValue), .string(NotulaBus.Recorder.Property.locale.rawValue),
                    .variant(Self.strings),
                ])
        }
        let afterSet = try await service.peakResidentBytes()
        Self.report(idle: idle, ["unknown member": afterUnknown, "Toggle": afterToggle, "Set Locale": afterSet])

        #expect(try await service.property(.state) == .string("idle"), "the refused Toggle did nothing")
        #expect(afterUnknown - idle < Self.allowance)
        #expect(afterToggle - idle < Self.allowance)
        #expect(afterSet - idle < Self.allowance)
    }

    @Test func aCallWhoseHandlerTakesStringsIsRefusedPastAHundredThousandValues() async throws {
        let service = try await ServiceUnderTest.start()
        _ = try await service.property(.state)
        let idle = try await service.peakResidentBytes()
        let menu = ObjectPath("/StatusNotifierItem/Menu")!
        // GetLayout takes its property names as `as`: 30 MiB of them would be 4 million boxed strings.
        await #expect(throws: BusError(.invalidArgs, "GetLayout takes at most 100000 values in its arguments")) {
            try await service.callTray(menu, "com.canonical.dbusmenu", "GetLayout", [.int32(0), .int32(-1), Self.strings])
        }
        let afterLayout = try await service.peakResidentBytes()
        Self.report(idle: idle, ["GetLayout with 30 MiB of names": afterLayout])
        #expect(afterLayout - idle < Self.allowance)
        let names = try await service.callTray(
            menu, "com.canonical.dbusmenu", "GetLayout", [.int32(0), .int32(0), .array(element: "s", [.string("label")])])
        #expect(names.body.count == 2, "a call of a sensible size is answered")
    }

    @Test func bigCallsOneAfterAnotherDoNotRaiseThePeakFurther() async throws {
        let service = try await ServiceUnderTest.start()
        _ = try await service.property(.state)
        let idle = try await service.peakResidentBytes()
        var peaks: [Int] = []
        for _ in 0..<8 {
            await #expect(throws: BusError.self) {
                try await service.call(NotulaBus.recorderPath, NotulaBus.recorderInterface, "NoSuchMethod", [Self.bytes])
            }
            peaks.append(try await service.peakResidentBytes())
        }
        Self.report(idle: idle, ["8 calls": peaks.max() ?? idle])
        #expect(peaks.max()! - idle < Self.allowance, "peaks: \(peaks.map { $0 >> 20 }) MiB")
    }

    @Test func aSignalNobodyWantsOnTheSystemBusIsDroppedUnread() async throws {
        let logind = try await LogindMock()
        let service = try await ServiceUnderTest.start(environment: logind.environment)
        try await poll(within: .seconds(10)) {
            try await logind.sleepDelayLocks() == ["Notula"]
        } otherwise: {
            NotOnTheSystemBus()
        }
        let stranger = try await logind.systemBus.connect()
        let target = try #require(try await service.connectionName(on: stranger))
        let idle = try await service.peakResidentBytes()

        // One signal of a kind nobody subscribed to, one shaped as logind's but from a stranger and of another type.
        try await stranger.emit(
            path: ObjectPath("/org/example/Junk")!, interface: "org.example.Junk", member: "Junk", arguments: [Self.strings],
            destination: target)
        try await stranger.emit(
            path: ObjectPath("/org/freedesktop/login1")!, interface: "org.freedesktop.login1.Manager", member: "PrepareForSleep",
            arguments: [Self.bytes],
            destination: target)
        // The service reads its messages in order: an answer to a later call means both signals were handled.
        _ = try? await stranger.call(
            MethodCall(destination: target, path: ObjectPath("/")!, interface: "org.freedesktop.DBus.Peer", member: "Ping"))
        let afterSignals = try await service.peakResidentBytes()
        Self.report(idle: idle, ["two signals": afterSignals])

        #expect(try await service.property(.state) == .string("idle"))
        #expect(afterSignals - idle < Self.allowance)
        await stranger.close()
    }

    private struct NotOnTheSystemBus: Error {}

    private static func report(idle: Int, _ after: [String: Int]) {
        let figures = after.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value >> 20) MiB (+\(($0.value - idle) >> 20))" }
        print("notulad VmHWM: idle \(idle >> 20) MiB; after " + figures.joined(separator: ", "))
    }
}
