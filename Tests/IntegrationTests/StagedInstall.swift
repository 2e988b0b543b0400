import Foundation
import NotulaTestSupport

/// `make install` of the binaries under test into a temporary folder, removed with the value.
final class StagedInstall {
    /// The folder installed into: DESTDIR, or the PREFIX itself.
    let root: URL
    let prefix: String
    /// The folder of the binaries installed (libvosk.so beside them).
    let binaries: URL

    /// Every file `make install` puts under the prefix, relative to it, sorted.
    static var files: [String] { (fixedFiles + whisperFiles).sorted() }

    /// libwhisper and the ggml libraries of the pywhispercpp wheel, whose names carry their build's hashes.
    private static var whisperFiles: [String] {
        let libraries = binaryDirectory.appendingPathComponent("whisper/pywhispercpp.libs").path
        return ["lib/notula/whisper/libwhisper.so.1"]
            + ((try? FileManager.default.contentsOfDirectory(atPath: libraries)) ?? []).map { "lib/notula/whisper/pywhispercpp.libs/" + $0 }
    }

    /// The files whose names do not change with a build.
    private static let fixedFiles = [
        "bin/notula", "bin/notulad", "lib/notula/libvosk.so", "lib/notula/sherpa/libonnxruntime.so",
        "lib/notula/sherpa/libsherpa-onnx-c-api.so", "lib/notula/sherpa/silero_vad.onnx", "lib/systemd/user/notula.service",
        "share/applications/org.notula.Notula.desktop", "share/bash-completion/completions/notula",
        "share/dbus-1/interfaces/org.notula.Notula1.FocusReport.xml", "share/dbus-1/interfaces/org.notula.Notula1.FocusedWindow.xml",
        "share/dbus-1/interfaces/org.notula.Notula1.Library.xml",
        "share/dbus-1/interfaces/org.notula.Notula1.Memo.xml",
        "share/dbus-1/interfaces/org.notula.Notula1.Models.xml", "share/dbus-1/interfaces/org.notula.Notula1.Recorder.xml",
        "share/dbus-1/services/org.notula.Notula1.service", "share/fish/vendor_completions.d/notula.fish",
        "share/gnome-shell/extensions/notula@notula.org/extension.js", "share/gnome-shell/extensions/notula@notula.org/focus.js",
        "share/gnome-shell/extensions/notula@notula.org/metadata.json",
        "share/gnome-shell/extensions/notula@notula.org/notula.js", "share/icons/hicolor/scalable/apps/org.notula.Notula.svg",
        "share/man/man1/notula.1", "share/man/man1/notulad.1", "share/metainfo/org.notula.Notula.metainfo.xml",
        "share/zsh/site-functions/_notula",
    ]

    enum Layout {
        /// `DESTDIR=…` with the default PREFIX, as a package is built.
        case staged
        /// `PREFIX=…`, so that the files name each other where they really are.
        case prefix
    }

    init(_ layout: Layout, binaries: URL = binaryDirectory) throws {
        self.binaries = binaries
        root = FileManager.default.temporaryDirectory.appendingPathComponent("notula-install-\(UUID().uuidString)")
        switch layout {
        case .staged: prefix = "/usr/local"
        case .prefix: prefix = root.path
        }
        let destination = layout == .staged ? "DESTDIR=\(root.path)" : "PREFIX=\(root.path)"
        try make("install", destination)
    }

    /// Where a file of the install is, given its path relative to the prefix.
    func path(_ relative: String) -> URL {
        URL(fileURLWithPath: root.path + (prefix == root.path ? "" : prefix) + "/" + relative)
    }

    /// Runs a make target of the package with the binaries under test.
    func make(_ target: String, _ destination: String) throws {
        try output(of: "make", "-s", "-C", packageRoot.path, target, destination, "BIN_DIR=\(binaries.path)")
    }

    /// The files under the root, relative to the prefix, sorted.
    var installedFiles: [String] {
        let base = path("").path
        let walker = FileManager.default.enumerator(atPath: root.path)
        var files: [String] = []
        while let relative = walker?.nextObject() as? String {
            let full = root.appendingPathComponent(relative).path
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue {
                files.append(String(full.dropFirst(base.count + 1)))
            }
        }
        return files.sorted()
    }

    deinit { try? FileManager.default.removeItem(at: root) }
}
