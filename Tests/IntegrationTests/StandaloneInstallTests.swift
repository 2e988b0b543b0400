import Foundation
import NotulaTestSupport
import TestPasses
import Testing

/// Where `make build` puts the release binaries (`NOTULA_RELEASE_BIN_DIR`, else the package's release build); the
/// test is cancelled, saying why, where they were not built.
func releaseBinaryDirectory() throws -> URL {
    let directory =
        ProcessInfo.processInfo.environment["NOTULA_RELEASE_BIN_DIR"].map { URL(fileURLWithPath: $0) }
        ?? packageRoot.appendingPathComponent(".build/release")
    let missing = ["notulad", "notula", "libvosk.so"].filter {
        !FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path)
    }
    if !missing.isEmpty {
        let reason = "no release build in \(directory.path) (\(missing.joined(separator: ", ")) missing): make build makes it"
        print("Skipped: \(reason)")
        try Test.cancel(Comment(rawValue: reason))
    }
    return directory
}

@Suite("The installed binaries run where no Swift toolchain is", .tags(.package))
struct StandaloneInstallTests {
    @Test("The installed binaries name no library folder: the Swift runtime is inside them")
    func noRunpath() throws {
        let install = try StagedInstall(.staged, binaries: try releaseBinaryDirectory())
        for binary in ["bin/notulad", "bin/notula"] {
            let dynamic = try output(of: "readelf", "-d", install.path(binary).path)
            #expect(!dynamic.contains("RUNPATH") && !dynamic.contains("RPATH"), "\(binary): \(dynamic)")
            #expect(!dynamic.contains("libswift") && !dynamic.contains("libFoundation"), "\(binary): \(dynamic)")
        }
    }

    @Test("With the toolchain hidden, notula status starts the installed notulad through activation")
    func activationWithoutToolchain() async throws {
        let toolchain = try HiddenToolchain.available()
        let install = try StagedInstall(.prefix, binaries: try releaseBinaryDirectory())
        // The control: in the same namespace, the debug build cannot even start.
        let debug = try toolchain.run([binaryDirectory.appendingPathComponent("notula").path, "--help"])
        #expect(debug.status == 127 && debug.errorOutput.contains("error while loading shared libraries"), "\(debug)")

        let service = try await toolchain.statusThroughActivation(
            notula: install.path("bin/notula"), services: install.path("share/dbus-1/services"), scratch: install.root)
        #expect(service.status.status == 0 && service.status.output == "idle 0.0\n", "\(service.status)")
        #expect(service.executable == install.path("bin/notulad").path)
        let vosk = install.path("lib/notula/libvosk.so").resolvingSymlinksInPath().path
        #expect(service.log.contains("Transcription engine: libvosk at \(vosk)\n"), "\(service.log)")
        let voskLoads = try toolchain.loads(library: vosk)
        #expect(voskLoads.status == 0, "\(voskLoads)")
        let whisper = try toolchain.whisperHelper(
            install.path("bin/notulad").path, library: install.path("lib/notula/whisper/libwhisper.so.1").path)
        #expect(whisper.status == 0 && whisper.output.isEmpty, "\(whisper)")
        let voice = try toolchain.voiceHelper(
            install.path("bin/notulad").path, library: install.path("lib/notula/sherpa/libsherpa-onnx-c-api.so").path,
            model: install.path("lib/notula/sherpa/silero_vad.onnx").path, scratch: install.root)
        #expect(voice.status == 0 && voice.output.split(separator: "\n").count == 1, "one utterance heard: \(voice)")
        #expect(!service.mappedFiles.contains { $0.hasPrefix(toolchain.folder + "/") }, "\(service.mappedFiles)")
    }
}
