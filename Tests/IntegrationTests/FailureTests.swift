import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

@Suite("Bad input and missing devices", .serialized)
struct FailureTests {
    @Test func missingSourceFailsStartAndTheServiceStaysUp() async throws {
        let service = try await ServiceUnderTest.start(.named("no_such_microphone"))
        let error = await busError { try await service.recorder(.start) }
        #expect(error?.name == .deviceUnavailable)
        #expect(error?.message.contains("no_such_microphone") == true, "\(String(describing: error))")
        #expect(try await service.property(.state) == .string("idle"))
        let toggle = await busError { try await service.recorder(.toggle) }
        #expect(toggle?.name == .deviceUnavailable)
        #expect(try await service.property(.state) == .string("idle"))
    }

    @Test func theSourceInSettingsIsTheOneOpened() async throws {
        let service = try await ServiceUnderTest.start(.fromSettings("microphone_from_settings"))
        let error = await busError { try await service.recorder(.start) }
        #expect(error?.name == .deviceUnavailable)
        #expect(error?.message.contains("microphone_from_settings") == true, "\(String(describing: error))")
    }

    @Test func badCallsAreAnsweredWithNamedErrors() async throws {
        let service = try await ServiceUnderTest.start()
        let recorder = NotulaBus.recorderPath
        let properties: InterfaceName = "org.freedesktop.DBus.Properties"
        let cases: [(String, () async throws -> Message)] = [
            ("org.freedesktop.DBus.Error.InvalidArgs", { try await service.recorder(.toggle, [.string("now")]) }),
            (
                "org.freedesktop.DBus.Error.UnknownMethod",
                { try await service.call(NotulaBus.recorderPath, NotulaBus.recorderInterface, "Record") }
            ),
            ("org.freedesktop.DBus.Error.UnknownInterface", { try await service.call(recorder, "org.notula.Notula1.Nope", "Toggle") }),
            (
                "org.freedesktop.DBus.Error.UnknownObject",
                { try await service.call(ObjectPath("/org/notula/Notula1/Nope")!, nil, "Toggle") }
            ),
            (
                "org.freedesktop.DBus.Error.UnknownObject",
                { try await service.call(NotulaBus.memosPath.appending("42")!, NotulaBus.memoInterface, "Get") }
            ),
            (
                "org.freedesktop.DBus.Error.UnknownProperty",
                { try await service.call(recorder, properties, "Get", [.string(NotulaBus.recorderInterface.rawValue), .string("Volume")]) }
            ),
            (
                "org.freedesktop.DBus.Error.PropertyReadOnly",
                {
                    try await service.call(
                        recorder, properties, "Set",
                        [
                            .string(NotulaBus.recorderInterface.rawValue), .string(NotulaBus.Recorder.Property.state.rawValue),
                            .variant(.string("recording")),
                        ])
                }
            ),
            (NotulaErrorName.invalidState.rawValue.rawValue, { try await service.recorder(.process) }),
            (NotulaErrorName.invalidState.rawValue.rawValue, { try await service.recorder(.pause) }),
            (NotulaErrorName.invalidState.rawValue.rawValue, { try await service.recorder(.discard) }),
        ]
        for (expected, call) in cases {
            let error = await busError(call)
            #expect(error?.name.rawValue == expected, "got \(String(describing: error))")
            #expect(error?.message.isEmpty == false)
        }
        let invalid = await busError { try await service.recorder(.resume) }
        #expect(invalid?.message == "Cannot Resume while idle: idle allows Toggle, Start")
        #expect(try await service.property(.state) == .string("idle"))
    }

    @Test func secondInstanceExitsNamingTheOwner() async throws {
        let service = try await ServiceUnderTest.start()
        let second = try run(binaryDirectory.appendingPathComponent("notulad").path, [], environment: service.environment)
        #expect(second.status == 2)
        #expect(second.errorOutput.contains("org.notula.Notula1 is already owned by :1."), "\(second.errorOutput)")
        #expect(second.errorOutput.contains("pid "))
        #expect(try await service.property(.state) == .string("idle"))
    }

    @Test func badCommandLineIsRefused() throws {
        let result = try run(binaryDirectory.appendingPathComponent("notulad").path, ["--frobnicate"])
        #expect(result.status == 64)
        #expect(result.errorOutput.contains("<3>Unknown option --frobnicate"))
    }
}
