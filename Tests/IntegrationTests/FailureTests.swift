import DBus
import Foundation
import NotulaTestSupport
import Testing

@Suite("Bad input and missing devices", .serialized)
struct FailureTests {
    @Test func missingSourceFailsStartAndTheServiceStaysUp() async throws {
        let service = try await ServiceUnderTest.start(.named("no_such_microphone"))
        let error = await busError { try await service.recorder("Start") }
        #expect(error?.name.rawValue == "org.notula.Notula1.Error.DeviceUnavailable")
        #expect(error?.message.contains("no_such_microphone") == true, "\(String(describing: error))")
        #expect(try await service.property("State") == .string("idle"))
        let toggle = await busError { try await service.recorder("Toggle") }
        #expect(toggle?.name.rawValue == "org.notula.Notula1.Error.DeviceUnavailable")
        #expect(try await service.property("State") == .string("idle"))
    }

    @Test func theSourceInSettingsIsTheOneOpened() async throws {
        let service = try await ServiceUnderTest.start(.fromSettings("microphone_from_settings"))
        let error = await busError { try await service.recorder("Start") }
        #expect(error?.name.rawValue == "org.notula.Notula1.Error.DeviceUnavailable")
        #expect(error?.message.contains("microphone_from_settings") == true, "\(String(describing: error))")
    }

    @Test func badCallsAreAnsweredWithNamedErrors() async throws {
        let service = try await ServiceUnderTest.start()
        let recorder = ServiceUnderTest.recorderPath
        let properties: InterfaceName = "org.freedesktop.DBus.Properties"
        let cases: [(String, () async throws -> Message)] = [
            ("org.freedesktop.DBus.Error.InvalidArgs", { try await service.recorder("Toggle", [.string("now")]) }),
            ("org.freedesktop.DBus.Error.UnknownMethod", { try await service.recorder("Record") }),
            ("org.freedesktop.DBus.Error.UnknownInterface", { try await service.call(recorder, "org.notula.Notula1.Nope", "Toggle") }),
            (
                "org.freedesktop.DBus.Error.UnknownObject",
                { try await service.call(ObjectPath("/org/notula/Notula1/Nope")!, nil, "Toggle") }
            ),
            (
                "org.freedesktop.DBus.Error.UnknownObject",
                { try await service.call(ObjectPath("/org/notula/Notula1/Memos/42")!, "org.notula.Notula1.Memo", "Get") }
            ),
            (
                "org.freedesktop.DBus.Error.UnknownProperty",
                { try await service.call(recorder, properties, "Get", [.string("org.notula.Notula1.Recorder"), .string("Volume")]) }
            ),
            (
                "org.freedesktop.DBus.Error.PropertyReadOnly",
                {
                    try await service.call(
                        recorder, properties, "Set",
                        [.string("org.notula.Notula1.Recorder"), .string("State"), .variant(.string("recording"))])
                }
            ),
            ("org.notula.Notula1.Error.InvalidState", { try await service.recorder("Process") }),
            ("org.notula.Notula1.Error.InvalidState", { try await service.recorder("Pause") }),
            ("org.notula.Notula1.Error.InvalidState", { try await service.recorder("Discard") }),
        ]
        for (expected, call) in cases {
            let error = await busError(call)
            #expect(error?.name.rawValue == expected, "got \(String(describing: error))")
            #expect(error?.message.isEmpty == false)
        }
        let invalid = await busError { try await service.recorder("Resume") }
        #expect(invalid?.message == "Cannot Resume while idle: idle allows Toggle, Start")
        #expect(try await service.property("State") == .string("idle"))
    }

    @Test func secondInstanceExitsNamingTheOwner() async throws {
        let service = try await ServiceUnderTest.start()
        let second = try run(binaryDirectory.appendingPathComponent("notulad").path, [], environment: service.environment)
        #expect(second.status == 2)
        #expect(second.errorOutput.contains("org.notula.Notula1 is already owned by :1."), "\(second.errorOutput)")
        #expect(second.errorOutput.contains("pid "))
        #expect(try await service.property("State") == .string("idle"))
    }

    @Test func badCommandLineIsRefused() throws {
        let result = try run(binaryDirectory.appendingPathComponent("notulad").path, ["--frobnicate"])
        #expect(result.status == 64)
        #expect(result.errorOutput.contains("<3>Unknown option --frobnicate"))
    }
}
