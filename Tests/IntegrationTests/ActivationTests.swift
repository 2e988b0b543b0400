import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

@Suite("The installed Notula is started by D-Bus activation")
struct ActivationTests {
    @Test("A private bus with the installed services folder starts notulad on the first busctl Toggle, which records")
    func firstCallStartsTheInstalledService() async throws {
        let install = try StagedInstall(.prefix)
        let sink = try await NullSink()
        let home = install.root.appendingPathComponent("home")
        let config = home.appendingPathComponent("config/notula")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        try Data(#"{"source": "\#(sink.monitor)"}"#.utf8).write(to: config.appendingPathComponent("settings.json"))
        // What an activated service inherits is the bus daemon's environment: a user's, here with throwaway folders.
        var environment = ProcessInfo.processInfo.environment
        environment["NOTULA_VOSK_LIBRARY"] = nil
        for (variable, folder) in [("HOME", ""), ("XDG_DATA_HOME", "/data"), ("XDG_CONFIG_HOME", "/config"), ("XDG_CACHE_HOME", "/cache")] {
            environment[variable] = home.path + folder
        }
        let log = install.root.appendingPathComponent("bus.log")
        let bus = try PrivateBus(activatingFrom: install.path("share/dbus-1/services"), environment: environment, log: log)
        let client = try await bus.connect()
        let owners = try await client.signals(
            matching: MatchRule(
                sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
                arg0: NotulaBus.name.rawValue))
        #expect(try await client.owner(of: NotulaBus.name) == nil)

        let toggle = try run(
            "busctl", ["--user", "call", "org.notula.Notula1", "/org/notula/Notula1/Recorder", "org.notula.Notula1.Recorder", "Toggle"],
            environment: bus.environment)
        func busLog() -> String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        #expect(toggle.status == 0, "\(toggle.errorOutput)\n\(busLog())")
        let reply = try await client.call(
            MethodCall(
                destination: NotulaBus.name, path: NotulaBus.recorderPath, interface: "org.freedesktop.DBus.Properties",
                member: "Get",
                arguments: [.string(NotulaBus.recorderInterface.rawValue), .string(NotulaBus.Recorder.Property.state.rawValue)]))
        #expect(try reply.argument(0, as: Variant.self).value == .string("recording"))

        let owner = try #require(try await client.owner(of: NotulaBus.name))
        let pid = Int32(try await client.processID(of: owner))
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        #expect(executable == install.path("bin/notulad").path)
        // The engine is the installed copy of libvosk, found from notulad's own place with no variable set; it is
        // named in the journal before the name is owned, so before the Toggle was answered.
        let vosk = install.path("lib/notula/libvosk.so").resolvingSymlinksInPath().path
        #expect(busLog().contains("Transcription engine: libvosk at \(vosk)\n"), "\(busLog())")
        // A clean stop: the service leaves the bus by itself.
        kill(pid, SIGTERM)
        for await change in owners where (try? change.argument(2, as: String.self)) == "" { break }
        #expect(busLog().contains("Kept the recording in progress"), "\(busLog())")
    }
}
