import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

@Suite("The GNOME Shell extension's logic, in gjs, against the running service")
struct GnomeShellLogicTests {
    @Test func theIndicatorFollowsTheRecorderAndItsControlsDriveIt() async throws {
        let service = try await ServiceUnderTest.start()
        let script = packageRoot.appendingPathComponent("Tests/gnome-shell/logic-test.js")
        let result = try run("/usr/bin/gjs", ["-m", script.path], environment: service.environment)
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        #expect(result.output.contains("ok sent: idle again"), "\(result.output)")
        #expect(try await service.property(.state) == .string("idle"))
    }

    @Test func theFirstClickStartsNotuladThroughTheBus() async throws {
        let sink = try await NullSink()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("notula-activation-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let services = home.appendingPathComponent("services")
        try FileManager.default.createDirectory(at: services, withIntermediateDirectories: true)
        let notulad = binaryDirectory.appendingPathComponent("notulad").path
        try Data("[D-BUS Service]\nName=org.notula.Notula1\nExec=\(notulad) --source \(sink.monitor)\n".utf8)
            .write(to: services.appendingPathComponent("org.notula.Notula1.service"))
        // An activated service inherits the bus daemon's environment: throwaway folders here.
        var environment = ProcessInfo.processInfo.environment
        for (variable, folder) in [("HOME", ""), ("XDG_DATA_HOME", "/data"), ("XDG_CONFIG_HOME", "/config"), ("XDG_CACHE_HOME", "/cache")] {
            environment[variable] = home.path + folder
        }
        let bus = try PrivateBus(activatingFrom: services, environment: environment)
        let client = try await bus.connect()
        let script = packageRoot.appendingPathComponent("Tests/gnome-shell/logic-test.js")
        let result = try run("/usr/bin/gjs", ["-m", script.path, "activation"], environment: bus.environment)
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        #expect(result.output.contains("ok the first click started notulad"), "\(result.output)")
        if let owner = try await client.owner(of: NotulaBus.name) {
            kill(Int32(try await client.processID(of: owner)), SIGKILL)
        }
        await client.close()
    }
}

@Suite("The GNOME Shell extension as it ships")
struct GnomeShellExtensionTests {
    @Test func makeGnomeExtensionZipsTheFourFilesTheShellLoads() throws {
        try output(of: "make", "-s", "-C", packageRoot.path, "gnome-extension")
        let zip = packageRoot.appendingPathComponent(".build/notula@notula.org.shell-extension.zip")
        let listing = try output(of: "python3", "-m", "zipfile", "-l", zip.path)
        let names = listing.split(separator: "\n").dropFirst().compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(names.sorted() == ["extension.js", "focus.js", "metadata.json", "notula.js"], "\(listing)")
    }

    /// Each build claims the Shells it ran in for real (GnomeExtensionTests), and only those it can run on.
    @Test func eachBuildListsTheShellsItRanIn() throws {
        let builds = FileManager.default.temporaryDirectory.appendingPathComponent("notula-extension-builds-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: builds) }
        try output(of: "make", "-s", "-C", packageRoot.path, "extension-builds", "EXTENSION_BUILD=\(builds.path)")
        for (build, versions) in [("shell-43", ["43"]), ("shell-45", ["48"])] {
            let metadata =
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: builds.appendingPathComponent("\(build)/metadata.json"))) as? [String: Any]
            #expect(metadata?["uuid"] as? String == "notula@notula.org")
            #expect(metadata?["shell-version"] as? [String] == versions, "\(build)")
        }
    }

    /// Debian 12 has GNOME Shell 43, which cannot load an ES-module extension: gjs can still parse the glue, and
    /// stops only at the Shell's own modules, which are not there.
    @Test func theShellGlueParsesAndNeedsOnlyTheShellsModules() throws {
        let result = try run("/usr/bin/gjs", ["-m", packageRoot.appendingPathComponent("desktop/gnome-shell/extension.js").path])
        #expect(!result.errorOutput.contains("SyntaxError"), "\(result.errorOutput)")
        #expect(result.errorOutput.contains("ImportError: Unable to load file from: resource:///org/gnome/shell/"), "\(result.errorOutput)")
    }
}
