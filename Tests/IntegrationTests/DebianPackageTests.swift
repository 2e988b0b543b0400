import Foundation
import NotulaTestSupport
import TestPasses
import Testing

@Suite("make deb builds a package that installs, runs without the toolchain, and goes away whole", .tags(.package))
struct DebianPackageTests {
    /// apt-get and dpkg wait for a lock another install holds, rather than fail.
    static let apt = ["-o", "DPkg::Lock::Timeout=600"]

    /// Where the package has a file `make install` puts at `path` under its default prefix: under /usr, the zsh
    /// completion where zsh looks for a package's, the manual pages compressed.
    static func packaged(_ path: String) -> String {
        let underUsr = "/usr/" + path.replacingOccurrences(of: "zsh/site-functions", with: "zsh/vendor-completions")
        return underUsr.hasPrefix("/usr/share/man/") ? underUsr + ".gz" : underUsr
    }

    @Test("lintian finds no error; apt installs it, notula status activates its notulad, a purge leaves no file")
    func installActivateRemove() async throws {
        let binaries = try releaseBinaryDirectory()
        let toolchain = try HiddenToolchain.available()
        // Installing a package is a change to the whole machine: never over a notula installed by someone else.
        let installed = try run("dpkg-query", ["-W", "-f=${Status}", "notula"])
        if getuid() != 0 || installed.output.hasSuffix(" installed") {
            let reason = getuid() != 0 ? "installing a package needs root" : "a notula package is installed here already"
            print("Skipped: \(reason)")
            try Test.cancel(Comment(rawValue: reason))
        }

        // make keeps the package under .build and rebuilds it only when what it holds changed.
        try output(of: "make", "-s", "-C", packageRoot.path, "deb", "BIN_DIR=\(binaries.path)")
        let build = packageRoot.appendingPathComponent(".build")
        let packages = try FileManager.default.contentsOfDirectory(atPath: build.path).filter {
            $0.hasPrefix("notula_") && $0.hasSuffix(".deb")
        }
        let package = build.appendingPathComponent(try #require(packages.count == 1 ? packages.first : nil, "\(packages)")).path

        let lintian = try run("lintian", ["--tag-display-limit", "0", package])
        let findings = lintian.output.split(separator: "\n")
        // lintian exits 1 on an error; 127 is no lintian at all (make test-deps installs it).
        #expect(lintian.status == 0 && !findings.contains { $0.hasPrefix("E:") }, "\(lintian.output)\(lintian.errorOutput)")
        print("lintian on \(package):\n\(lintian.output)")

        var environment = ProcessInfo.processInfo.environment
        environment["DEBIAN_FRONTEND"] = "noninteractive"
        let remove = ["remove", "--purge", "-y"] + Self.apt + ["notula"]
        defer { _ = try? run("apt-get", remove, environment: environment) }
        let install = try run("apt-get", ["install", "-y", "--no-install-recommends"] + Self.apt + [package], environment: environment)
        try #require(install.status == 0, "\(install.output)\(install.errorOutput)")

        let listed = try output(of: "dpkg", "-L", "notula").split(separator: "\n").map(String.init)
        let files = listed.filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
        }
        let expected = StagedInstall.files.map(Self.packaged) + ["/usr/share/doc/notula/copyright", "/usr/share/doc/notula/changelog.gz"]
        #expect(Set(expected).subtracting(files) == [], "\(listed)")

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("notula-package-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let service = try await toolchain.statusThroughActivation(
            notula: URL(fileURLWithPath: "/usr/bin/notula"), services: URL(fileURLWithPath: "/usr/share/dbus-1/services"), scratch: scratch)
        #expect(service.status.status == 0 && service.status.output == "idle 0.0\n", "\(service.status)")
        #expect(service.executable == "/usr/bin/notulad")
        #expect(service.log.contains("Transcription engine: libvosk at /usr/lib/notula/libvosk.so\n"), "\(service.log)")
        let voskLoads = try toolchain.loads(library: "/usr/lib/notula/libvosk.so")
        #expect(voskLoads.status == 0, "\(voskLoads)")
        let whisper = try toolchain.whisperHelper("/usr/bin/notulad", library: "/usr/lib/notula/whisper/libwhisper.so.1")
        #expect(whisper.status == 0 && whisper.output.isEmpty, "\(whisper)")
        let voice = try toolchain.voiceHelper(
            "/usr/bin/notulad", library: "/usr/lib/notula/sherpa/libsherpa-onnx-c-api.so", model: "/usr/lib/notula/sherpa/silero_vad.onnx",
            scratch: scratch)
        #expect(voice.status == 0 && voice.output.split(separator: "\n").count == 1, "one utterance heard: \(voice)")
        #expect(!service.mappedFiles.contains { $0.hasPrefix(toolchain.folder + "/") }, "\(service.mappedFiles)")

        let removal = try run("apt-get", remove, environment: environment)
        #expect(removal.status == 0, "\(removal.output)\(removal.errorOutput)")
        #expect(files.filter { FileManager.default.fileExists(atPath: $0) } == [])
        #expect(try run("dpkg-query", ["-W", "-f=${Status}", "notula"]).output.hasSuffix(" installed") == false)
    }
}
