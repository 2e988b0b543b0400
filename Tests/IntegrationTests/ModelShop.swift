import Foundation
import NotulaTestSupport
import Testing

/// Vosk's catalog and model archives served over loopback, as alphacephei.com serves them: the service is
/// pointed at the catalog with NOTULA_MODEL_CATALOG.
final class ModelShop {
    /// One model of the catalog, and how its archive is served.
    struct Offer {
        var lang = "ko"
        var name = "vosk-model-small-ko-0.22"
        /// The catalog's `type`: small, big, big-lgraph.
        var type = "small"
        var archive: URL
        /// Another MD5 than the archive's, to serve a corrupted download.
        var md5: String?
        var route: (String) -> TestHTTPServer.Route = { .file($0) }
        /// Another address than the server's for the archive, such as `file:///dev/zero`.
        var url: String?
    }

    let server: TestHTTPServer
    private let folder: URL

    init(_ offers: [Offer]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-shop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let catalog = folder.appendingPathComponent("model-list.json")
        var routes = ["/vosk/models/model-list.json": TestHTTPServer.Route.file(catalog.path)]
        for offer in offers { routes["/vosk/models/\(offer.name).zip"] = offer.route(offer.archive.path) }
        server = try TestHTTPServer(routes: routes)
        // The catalog names the server's port, which is known only now; the server reads files as it serves them.
        let entries = try offers.map { offer in
            let size = try FileManager.default.attributesOfItem(atPath: offer.archive.path)[.size] as? Int ?? 0
            return [
                "lang": offer.lang, "lang_text": "Korean", "name": offer.name, "obsolete": "false", "type": offer.type,
                "url": offer.url ?? server.url(for: "/vosk/models/\(offer.name).zip"), "size": size, "size_text": "\(size / 1_000_000)MiB",
                "md5": try offer.md5 ?? md5(of: offer.archive), "version": "0.22",
            ] as [String: Any]
        }
        try JSONSerialization.data(withJSONObject: entries).write(to: catalog)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    var catalogAddress: String { server.url(for: "/vosk/models/model-list.json") }

    private func md5(of file: URL) throws -> String {
        String(try output(of: "md5sum", file.path).prefix(32))
    }
}

/// Archives to serve, made with Python's zipfile and tarfile (Debian's python3: the stdlib is all it needs).
enum ModelArchives {
    /// The Korean test model zipped as Vosk zips its models: one top folder named after the model. Stored, not
    /// deflated: the test is of the installation, not of zlib's speed. Made once for the whole run.
    static let korean: Result<URL, any Error> = Result { try koreanModel(as: "vosk-model-small-ko-0.22") }

    /// The Korean test model zipped as the model `name`: the same files under another name (and so another kind).
    static func koreanModel(as name: String) throws -> URL {
        let model = try #require(ProcessInfo.processInfo.environment["NOTULA_TEST_MODEL"], "NOTULA_TEST_MODEL names the Korean model")
        let archive = FileManager.default.temporaryDirectory.appendingPathComponent("notula-ko-\(UUID().uuidString).zip")
        try python(
            """
            import os, sys, zipfile
            model, archive, folder = sys.argv[1], sys.argv[2], sys.argv[3]
            with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as z:
                for root, dirs, files in os.walk(model, followlinks=True):
                    for name in sorted(files):
                        path = os.path.join(root, name)
                        z.write(path, os.path.join(folder, os.path.relpath(path, model)))
            """, model, archive.path, name)
        return archive
    }

    /// A zip whose model folder looks right but which also writes `escape` (`../../evil.txt`).
    static func zip(escapingWith escape: String, in folder: URL) throws -> URL {
        let archive = folder.appendingPathComponent("escaping.zip")
        try python(
            """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w") as z:
                for part in ("am/final.mdl", "conf/model.conf", "graph/HCLr.fst"):
                    z.writestr("vosk-model-small-ko-0.22/" + part, "x")
                z.writestr(sys.argv[2], "evil")
            """, archive.path, escape)
        return archive
    }

    /// A tar.gz whose model folder holds a link out of it, to /etc.
    static func tarWithLinkOut(in folder: URL) throws -> URL {
        let archive = folder.appendingPathComponent("linking.zip")
        try python(
            """
            import io, sys, tarfile
            with tarfile.open(sys.argv[1], "w:gz") as t:
                for part in ("am/final.mdl", "conf/model.conf", "graph/HCLr.fst"):
                    info = tarfile.TarInfo("vosk-model-small-ko-0.22/" + part)
                    info.size = 1
                    t.addfile(info, io.BytesIO(b"x"))
                link = tarfile.TarInfo("vosk-model-small-ko-0.22/ivector")
                link.type = tarfile.SYMTYPE
                link.linkname = "/etc"
                t.addfile(link)
            """, archive.path)
        return archive
    }

    private static func python(_ code: String, _ arguments: String...) throws {
        try output(of: ["/usr/bin/python3", "-c", code] + arguments)
    }
}
