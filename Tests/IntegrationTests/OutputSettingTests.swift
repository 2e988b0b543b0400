import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

/// `Output` and `Typing`: what a panel or script sets is answered, kept in settings.json, announced, and refused
/// with the valid values when it is none of them; `ProcessTo` checks its output before anything happens.
@Suite("Where the text goes: Output, Typing and ProcessTo over the bus")
struct OutputSettingTests {
    private static func set(_ service: ServiceUnderTest, _ property: NotulaBus.Recorder.Property, _ value: String) async throws {
        try await service.call(
            NotulaBus.recorderPath, "org.freedesktop.DBus.Properties", "Set",
            [.string(NotulaBus.recorderInterface.rawValue), .string(property.rawValue), .variant(.string(value))])
    }

    @Test func outputAndTypingAreSetKeptAndAnnounced() async throws {
        let service = try await ServiceUnderTest.start()
        #expect(try await service.property(.output) == .string("memo"))
        #expect(try await service.property(.typing) == .string("auto"))
        var changes = try await service.recorderSignals().makeAsyncIterator()

        try await Self.set(service, .output, "type")
        try await Self.set(service, .typing, "xtest")

        #expect(try await service.property(.output) == .string("type"))
        #expect(try await service.property(.typing) == .string("xtest"))
        var announced: [String] = []
        while announced.count < 2, let message = await changes.next() {
            let changed = try message.argument(1, as: [String: Variant].self)
            announced += changed.compactMap { name, value in (try? value.get(String.self)).map { "\(name)=\($0)" } }
        }
        #expect(announced == ["Output=type", "Typing=xtest"])
        let settings = try String(contentsOf: service.home.appendingPathComponent("config/notula/settings.json"), encoding: .utf8)
        #expect(settings.contains(#""output" : "type""#) && settings.contains(#""typing" : "xtest""#), "\(settings)")

        // Kept: a new notulad on the same folders starts with them.
        let home = service.home
        #expect(service.stop() == 0)
        let again = try await ServiceUnderTest.start(home: home)
        #expect(try await again.property(.output) == .string("type"))
        #expect(try await again.property(.typing) == .string("xtest"))
    }

    @Test func liveIsOffUntilSetThenKeptAndAnnounced() async throws {
        let service = try await ServiceUnderTest.start()
        #expect(try await service.property(.live) == .boolean(false))
        var changes = try await service.recorderSignals().makeAsyncIterator()
        let set = { (value: Value) in
            _ = try await service.call(
                NotulaBus.recorderPath, "org.freedesktop.DBus.Properties", "Set",
                [.string(NotulaBus.recorderInterface.rawValue), .string("Live"), .variant(value)])
        }
        let refused = await #expect(throws: BusError.self) { try await set(.string("true")) }
        #expect(refused?.name == .invalidArgs, "\(String(describing: refused))")
        try await set(.boolean(true))
        let announced = try #require(await changes.next())
        #expect(try announced.argument(1, as: [String: Variant].self)["Live"]?.value == .boolean(true))
        let home = service.home
        #expect(service.stop() == 0)
        let again = try await ServiceUnderTest.start(home: home)
        #expect(try await again.property(.live) == .boolean(true))
    }

    @Test func unknownValuesAreRefusedListingTheValidOnes() async throws {
        let service = try await ServiceUnderTest.start()

        let output = await #expect(throws: BusError.self) { try await Self.set(service, .output, "printer") }
        let typing = await #expect(throws: BusError.self) { try await Self.set(service, .typing, "paste-bin") }
        let processTo = await #expect(throws: BusError.self) { try await service.recorder(.processTo, [.string("-- ; rm -rf ~")]) }

        #expect(output?.name == .invalidArgs)
        #expect(output?.message == #"Output is one of "memo", "clipboard", "type""#)
        #expect(typing?.name == .invalidArgs)
        #expect(typing?.message == #"Typing is one of "auto", "portal", "virtual-keyboard", "xtest", "paste""#)
        #expect(processTo?.name == .invalidArgs)
        #expect(processTo?.message == #"The output is one of "memo", "clipboard", "type""#)
        #expect(try await service.property(.output) == .string("memo"))
        #expect(try await service.property(.state) == .string("idle"))
    }

    @Test func processToWhileIdleIsRefusedAsProcessIsAndTheCommandLineSaysSo() async throws {
        let service = try await ServiceUnderTest.start()

        let refused = await #expect(throws: BusError.self) { try await service.recorder(.processTo, [.string("type")]) }
        let typed = try run(binaryDirectory.appendingPathComponent("notula").path, ["send", "--type"], environment: service.environment)
        let copied = try run(binaryDirectory.appendingPathComponent("notula").path, ["send", "--copy"], environment: service.environment)
        let unknown = try run(binaryDirectory.appendingPathComponent("notula").path, ["send", "--print"], environment: service.environment)

        #expect(refused?.name == .invalidState)
        #expect(typed.status == 4 && typed.errorOutput.contains("idle"), "\(typed)")
        #expect(copied.status == 4, "\(copied)")
        #expect(unknown.status == 2, "\(unknown)")
    }
}
