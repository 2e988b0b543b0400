import Foundation
import NotulaTestSupport
import Testing

@Suite("make install lays Notula out where the desktop finds it")
struct InstallTests {
    @Test("DESTDIR gets exactly the files, with their modes, and uninstall takes them all away")
    func stagedLayout() throws {
        let install = try StagedInstall(.staged)
        #expect(install.installedFiles == StagedInstall.files)
        for file in StagedInstall.files {
            let attributes = try FileManager.default.attributesOfItem(atPath: install.path(file).path)
            #expect((attributes[.posixPermissions] as? Int) == (file.hasPrefix("bin/") ? 0o755 : 0o644), "\(file)")
        }
        try install.make("uninstall", "DESTDIR=\(install.root.path)")
        #expect(install.installedFiles == [])
    }

    @Test("The templates are filled in with the installed programs")
    func filledTemplates() throws {
        let install = try StagedInstall(.staged)
        func read(_ file: String) throws -> String { try String(contentsOf: install.path(file), encoding: .utf8) }
        let activation = try read("share/dbus-1/services/org.notula.Notula1.service")
        #expect(
            activation.contains("[D-BUS Service]\nName=org.notula.Notula1\nExec=/usr/local/bin/notulad\nSystemdService=notula.service\n"))
        let unit = try read("lib/systemd/user/notula.service")
        for line in [
            "Type=dbus", "BusName=org.notula.Notula1", "ExecStart=/usr/local/bin/notulad", "PartOf=graphical-session.target",
            "After=graphical-session.target", "Restart=on-failure",
        ] {
            #expect(unit.split(separator: "\n").contains(Substring(line)), "\(line)")
        }
        let desktop = try read("share/applications/org.notula.Notula.desktop")
        for command in ["toggle", "send", "discard"] {
            #expect(desktop.contains("Exec=/usr/local/bin/notula \(command)\n"))
        }
        #expect(!(activation + unit + desktop).contains("@"), "a placeholder left unfilled")
    }

    @Test func desktopFileValidates() throws {
        let install = try StagedInstall(.staged)
        let result = try run("desktop-file-validate", [install.path("share/applications/org.notula.Notula.desktop").path])
        #expect(result.status == 0 && result.output.isEmpty && result.errorOutput.isEmpty, "\(result.output)\(result.errorOutput)")
    }

    @Test("Software centres can list Notula: its AppStream metainfo validates, its desktop file beside it")
    func metainfoValidates() throws {
        let install = try StagedInstall(.staged)
        // validate-tree reads the prefix as a software centre does: the metainfo, and the desktop file it launches.
        let result = try run("appstreamcli", ["validate-tree", "--no-net", "--strict", install.path("").path])
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
    }

    @Test("The user unit parses, and names an ExecStart that exists")
    func unitVerifies() throws {
        let install = try StagedInstall(.prefix)
        let environment = try userManagerEnvironment(in: install)
        let result = try run(
            "systemd-analyze", ["verify", "--user", install.path("lib/systemd/user/notula.service").path], environment: environment)
        // verify exits 0 on directives it ignores: what it says is the verdict.
        #expect(result.status == 0 && result.output.isEmpty && result.errorOutput.isEmpty, "\(result.output)\(result.errorOutput)")
    }

    @Test("The user unit and the activation file name the same bus name, unit and command")
    func unitAndActivationAgree() throws {
        let install = try StagedInstall(.prefix)
        let unitFile = install.path("lib/systemd/user/notula.service")
        let unit = try KeyFile(unitFile)
        let activationFile = install.path("share/dbus-1/services/org.notula.Notula1.service")
        let activation = try KeyFile(activationFile)
        let name = try #require(activation["D-BUS Service", "Name"])
        // The session bus reads a service file only under its bus name; systemd waits for that name (Type=dbus).
        #expect(activationFile.lastPathComponent == name + ".service")
        #expect(unit["Service", "Type"] == "dbus")
        #expect(unit["Service", "BusName"] == name)
        #expect(activation["D-BUS Service", "SystemdService"] == unitFile.lastPathComponent)
        let command = try #require(activation["D-BUS Service", "Exec"])
        #expect(unit["Service", "ExecStart"] == command, "the bus and systemd would start different commands")
        let program = String(command.split(separator: " ")[0])
        #expect(program == install.path("bin/notulad").path)
        #expect(FileManager.default.isExecutableFile(atPath: program))
    }

    @Test("A user manager and the session bus look where the unit and the activation file are installed")
    func installedWhereLookedFor() throws {
        let install = try StagedInstall(.staged)
        var environment = try userManagerEnvironment(in: install)
        environment["XDG_DATA_DIRS"] = nil
        let unitPaths = try output(of: ["systemd-analyze", "--user", "unit-paths"], environment: environment)
        #expect(unitPaths.split(separator: "\n").contains(Substring(install.prefix + "/lib/systemd/user")), "\(unitPaths)")

        // A desktop session's XDG_DATA_DIRS holds PREFIX/share (its default is /usr/local/share:/usr/share): a
        // session bus with the standard configuration, given the staged one, can activate Notula.
        environment["XDG_DATA_DIRS"] = install.path("share").path
        // Killed with the value, its socket in the root.
        let daemon = try RunningCommand(
            "/usr/bin/dbus-daemon", ["--session", "--nofork", "--address=unix:dir=\(install.root.path)", "--print-address=1"],
            environment: environment)
        environment["DBUS_SESSION_BUS_ADDRESS"] = try daemon.nextLine()
        let names = try withExtendedLifetime(daemon) {
            try output(
                of: [
                    "dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
                    "org.freedesktop.DBus.ListActivatableNames",
                ], environment: environment)
        }
        #expect(names.contains("\"org.notula.Notula1\""), "\(names)")
    }
}

/// systemd-analyze runs a user manager of its own, which wants a runtime folder; no systemd need be running.
private func userManagerEnvironment(in install: StagedInstall) throws -> [String: String] {
    let runtime = install.root.appendingPathComponent("runtime")
    try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_RUNTIME_DIR"] = runtime.path
    return environment
}

/// A systemd unit or D-Bus service file: `[Section]` lines, then `Key=value` lines; `#` starts a comment.
private struct KeyFile {
    private var values: [String: String] = [:]

    init(_ file: URL) throws {
        var section = ""
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            if line.hasPrefix("[") {
                section = String(line.dropFirst().dropLast())
            } else if let equals = line.firstIndex(of: "=") {
                values["\(section)/\(line[..<equals])"] = String(line[line.index(after: equals)...])
            }
        }
    }

    subscript(section: String, key: String) -> String? { values["\(section)/\(key)"] }
}
