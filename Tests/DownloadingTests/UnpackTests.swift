import Downloading
import Foundation
import NotulaTestSupport
import Synchronization
import Testing

/// Unpacking archives with the real libarchive, on archives made by Python's `zipfile` and `tarfile`.
///
/// Every refused archive also leaves the disk as it was: no target folder, nothing beside it, and the
/// sibling `outside` folder untouched.
@Suite struct UnpackTests {
    // MARK: Good archives

    @Test func aModelZipUnpacksWithItsBytesAndPrivateModes() throws {
        let sandbox = try Sandbox()
        let archive = try sandbox.archive(
            "model.zip",
            [
                .folder("vosk-model-small-ko-0.22/"), .folder("vosk-model-small-ko-0.22/am/"),
                .file("vosk-model-small-ko-0.22/am/final.mdl", "weights", mode: 0o4755),
                .folder("vosk-model-small-ko-0.22/conf/"),
                .file("vosk-model-small-ko-0.22/conf/model.conf", "--min-active=200\n"),
                .folder("vosk-model-small-ko-0.22/graph/phones/"),
                .file("vosk-model-small-ko-0.22/graph/phones/word_boundary.int", "1 nonword\n"),
            ])

        let names = try ArchiveUnpacker.unpack(archive, into: sandbox.target, maximumBytes: 1_000_000)

        #expect(names == ["vosk-model-small-ko-0.22"])
        #expect(
            try Disk.tree(sandbox.target) == [
                "vosk-model-small-ko-0.22": "folder 700",
                "vosk-model-small-ko-0.22/am": "folder 700",
                "vosk-model-small-ko-0.22/am/final.mdl": "file 600: weights",
                "vosk-model-small-ko-0.22/conf": "folder 700",
                "vosk-model-small-ko-0.22/conf/model.conf": "file 600: --min-active=200\n",
                "vosk-model-small-ko-0.22/graph": "folder 700",
                "vosk-model-small-ko-0.22/graph/phones": "folder 700",
                "vosk-model-small-ko-0.22/graph/phones/word_boundary.int": "file 600: 1 nonword\n",
            ])
        #expect(try Disk.mode(sandbox.target) == 0o700)
    }

    @Test func aZipWithoutFolderEntriesGetsItsFoldersMade() throws {
        let sandbox = try Sandbox()
        let archive = try sandbox.archive(
            "model.zip",
            [
                .file("model/am/final.mdl", "weights"), .file("model/conf/model.conf", "conf"),
                .file("README", "read me"), .file("model/am/tree", "tree"),
            ])

        let names = try ArchiveUnpacker.unpack(archive, into: sandbox.target, maximumBytes: 1_000_000)

        #expect(names == ["model", "README"])
        #expect(
            try Disk.tree(sandbox.target) == [
                "README": "file 600: read me",
                "model": "folder 700",
                "model/am": "folder 700",
                "model/am/final.mdl": "file 600: weights",
                "model/am/tree": "file 600: tree",
                "model/conf": "folder 700",
                "model/conf/model.conf": "file 600: conf",
            ])
    }

    @Test func aNameThatIsNotASCIIKeepsItsLetters() throws {
        let sandbox = try Sandbox()
        let archive = try sandbox.archive("model.zip", [.file("모델/설정.conf", "한국어")])

        let names = try ArchiveUnpacker.unpack(archive, into: sandbox.target, maximumBytes: 1_000_000)

        #expect(names == ["모델"])
        #expect(try Disk.tree(sandbox.target) == ["모델": "folder 700", "모델/설정.conf": "file 600: 한국어"])
    }

    @Test(arguments: ["model.tar", "model.tar.gz", "model.tar.bz2", "model.tar.xz"])
    func aTarKeepsItsInsideLinks(name: String) throws {
        let sandbox = try Sandbox()
        let archive = try sandbox.archive(
            name,
            [
                .folder("./"), .folder("./top/"), .file("./top/a.txt", "a", mode: 0o6777), .folder("./top/sub/"),
                .file("./top/sub/b.txt", "b"), .symbolicLink("./top/to-b", to: "sub/b.txt"),
                .symbolicLink("./top/sub/up", to: "../a.txt"), .symbolicLink("./top/sub/top", to: ".."),
                .hardLink("./top/same-as-a", to: "./top/a.txt"),
            ])

        let names = try ArchiveUnpacker.unpack(archive, into: sandbox.target, maximumBytes: 1_000_000)

        #expect(names == ["top"])
        #expect(
            try Disk.tree(sandbox.target) == [
                "top": "folder 700",
                "top/a.txt": "file 600: a",
                "top/same-as-a": "file 600: a",
                "top/sub": "folder 700",
                "top/sub/b.txt": "file 600: b",
                "top/sub/top": "link to ..",
                "top/sub/up": "link to ../a.txt",
                "top/to-b": "link to sub/b.txt",
            ])
        #expect(try String(contentsOfFile: sandbox.target + "/top/to-b", encoding: .utf8) == "b")
        #expect(try String(contentsOfFile: sandbox.target + "/top/sub/top/sub/up", encoding: .utf8) == "a")
        #expect(try Disk.linkCount(sandbox.target + "/top/a.txt") == 2)
    }

    // MARK: Entries that would write outside

    @Test(arguments: ["../evil.txt", "a/../../evil.txt", "{outside}/evil.txt"])
    func aZipEntryLeadingOutsideIsRefused(name: String) throws {
        let sandbox = try Sandbox()
        let name = name.replacingOccurrences(of: "{outside}", with: sandbox.outside)
        let archive = try sandbox.archive("evil.zip", [.file("top/fine.txt", "fine"), .file(name, "evil")])

        try sandbox.expectRefusal(
            of: archive, with: .unsafeEntry(name: name, reason: "The archive tries to write outside its folder"),
            message: "The archive tries to write outside its folder: \(name)")
    }

    @Test func aLinkToAnAbsolutePathIsRefused() throws {
        let sandbox = try Sandbox()
        let archive = try sandbox.archive(
            "evil.tar", [.file("top/fine.txt", "fine"), .symbolicLink("top/etc", to: "/etc"), .file("top/etc/evil", "evil")])

        try sandbox.expectRefusal(of: archive, message: "The archive holds a link to /etc, outside its folder: top/etc")
    }

    @Test func aLinkClimbingOutOfTheFolderIsRefusedBeforeAnythingIsWrittenThroughIt() throws {
        let sandbox = try Sandbox()
        let archive = try sandbox.archive(
            "evil.tar",
            [.file("top/fine.txt", "fine"), .symbolicLink("top/link", to: "../.."), .file("top/link/outside/evil.txt", "evil")])

        try sandbox.expectRefusal(of: archive, message: "The archive holds a link to ../.., outside its folder: top/link")
    }

    @Test func nothingIsWrittenThroughAnInsideLink() throws {
        let sandbox = try Sandbox()
        let archive = try sandbox.archive(
            "evil.tar",
            [.folder("top/sub/"), .symbolicLink("top/link", to: "sub"), .file("top/link/evil.txt", "evil")])

        try sandbox.expectRefusal(
            of: archive, message: "The archive tries to write through the link top/link: top/link/evil.txt")
    }

    /// `top/up` leads to the folder itself, so `up/..` leads to its parent, though it reads as `top`.
    @Test func aLinkClimbingBackOutOfAnotherLinkIsRefused() throws {
        let sandbox = try Sandbox()
        let archive = try sandbox.archive(
            "evil.tar", [.symbolicLink("top/up", to: ".."), .symbolicLink("top/escape", to: "up/..")])

        try sandbox.expectRefusal(
            of: archive,
            message: "The archive holds a link to up/.., whose .. after a name could lead outside its folder: top/escape")
    }

    @Test func aHardLinkToAnAbsolutePathIsRefused() throws {
        let sandbox = try Sandbox()
        let archive = try sandbox.archive("evil.tar", [.file("top/fine.txt", "fine"), .hardLink("top/passwd", to: "/etc/passwd")])

        try sandbox.expectRefusal(
            of: archive, message: "The archive holds a hard link to /etc/passwd, outside its folder: top/passwd")
    }

    @Test func aHardLinkClimbingOutIsRefused() throws {
        let sandbox = try Sandbox()
        let archive = try sandbox.archive("evil.tar", [.hardLink("sentinel", to: "../outside/sentinel.txt")])

        try sandbox.expectRefusal(
            of: archive, message: "The archive holds a hard link to ../outside/sentinel.txt, outside its folder: sentinel")
    }

    @Test func aHardLinkToAFileNotUnpackedYetIsRefused() throws {
        let sandbox = try Sandbox()
        let archive = try sandbox.archive(
            "evil.tar", [.hardLink("top/early", to: "top/later"), .file("top/later", "later")])

        try sandbox.expectRefusal(
            of: archive,
            message: "The archive holds a hard link to top/later, which is not a file it unpacked before: top/early")
    }

    @Test func aNamedPipeIsRefused() throws {
        let sandbox = try Sandbox()
        let archive = try sandbox.archive("evil.tar", [.file("top/fine.txt", "fine"), .namedPipe("top/pipe")])

        try sandbox.expectRefusal(
            of: archive, message: "The archive holds a named pipe (FIFO), not a file, folder or link: top/pipe")
    }

    @Test func aDeviceIsRefused() throws {
        let sandbox = try Sandbox()
        let archive = try sandbox.archive("evil.tar.gz", [.file("top/fine.txt", "fine"), .characterDevice("top/null")])

        try sandbox.expectRefusal(
            of: archive, message: "The archive holds a character device, not a file, folder or link: top/null")
    }

    // MARK: Archives too large, damaged or not archives

    @Test func aZipBombStopsAtTheLimit() throws {
        let sandbox = try Sandbox()
        let archive = try sandbox.archive("bomb.zip", [.file("top/fine.txt", "fine"), .zeros("top/zeros", count: 20_000_000)])
        #expect(try Disk.size(archive) < 100_000)

        try sandbox.expectRefusal(
            of: archive, maximumBytes: 1_048_576, with: .tooLarge(limit: 1_048_576),
            message: "The archive unpacks to more than 1048576 bytes, the most allowed: it is damaged or not what it claims to be.")
    }

    /// A model that would unpack into the room the disk keeps free stops at the next MiB.
    @Test func anUnpackStopsAtTheRoomKeptFree() throws {
        let sandbox = try Sandbox()
        let archive = try sandbox.archive("bomb.zip", [.file("top/fine.txt", "fine"), .zeros("top/zeros", count: 20_000_000)])

        let error = try #require(throws: UnpackError.self) {
            try ArchiveUnpacker.unpack(archive, into: sandbox.target, maximumBytes: 100_000_000, keepingFree: .max)
        }

        guard case .noRoom(sandbox.target, free: _, keptFree: .max) = error else {
            Issue.record("expected .noRoom, got \(error)")
            return
        }
        #expect(error.message.hasPrefix("Unpacking into \(sandbox.target) stopped with "), "\(error.message)")
        #expect(error.message.hasSuffix(" free on its disk, under the 9223372.0 TB kept free."), "\(error.message)")
        try sandbox.expectNothingWritten()
    }

    /// The cut falls in the middle of the deflated noise, which is what zlib reports.
    @Test func aTruncatedZipIsUnreadable() throws {
        let sandbox = try Sandbox()
        let whole = try sandbox.archive("whole.zip", [.file("top/fine.txt", "fine"), .random("top/noise", count: 200_000)])
        let half = sandbox.root.file("archives/half.zip")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: half))

        try sandbox.expectRefusal(
            of: half, with: .unreadable(archive: half, reason: "ZIP decompression failed (-5)"),
            message: "Cannot read the archive \(half): ZIP decompression failed (-5).")
    }

    @Test func aZipWithADamagedFileIsUnreadable() throws {
        let sandbox = try Sandbox()
        let archive = try sandbox.archive("model.zip", [.stored("top/final.mdl", "model weights")])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: archive))
        let weights = try #require(bytes.range(of: Data("weights".utf8)))
        bytes[weights.lowerBound] = UInt8(ascii: "W")
        try bytes.write(to: URL(fileURLWithPath: archive))

        try sandbox.expectRefusal(
            of: archive, message: "Cannot read the archive \(archive): ZIP bad CRC: 0xc08ca009 should be 0xf319995.")
    }

    @Test func aFileThatIsNotAnArchiveIsUnreadable() throws {
        let sandbox = try Sandbox()
        let text = sandbox.root.file("archives/model.zip")
        try "<html>Not found</html>\n".write(toFile: text, atomically: true, encoding: .utf8)

        try sandbox.expectRefusal(
            of: text, with: .unreadable(archive: text, reason: "Unrecognized archive format"),
            message: "Cannot read the archive \(text): Unrecognized archive format.")
    }

    @Test func aMissingArchiveIsUnreadable() throws {
        let sandbox = try Sandbox()
        let missing = sandbox.root.file("archives/missing.zip")

        try sandbox.expectRefusal(
            of: missing, with: .unreadable(archive: missing, reason: "No such file or directory"),
            message: "Cannot read the archive \(missing): No such file or directory.")
    }

    // MARK: The folder

    @Test func anExistingFolderIsLeftAsItWas() throws {
        let sandbox = try Sandbox()
        let archive = try sandbox.archive("model.zip", [.file("top/fine.txt", "fine")])
        try FileManager.default.createDirectory(atPath: sandbox.target, withIntermediateDirectories: false)
        try Disk.write("mine", to: sandbox.target + "/mine.txt")

        let error = try #require(throws: UnpackError.self) {
            try ArchiveUnpacker.unpack(archive, into: sandbox.target, maximumBytes: 1_000_000)
        }

        #expect(error == .folderExists(sandbox.target))
        #expect(error.message == "Cannot unpack into \(sandbox.target): it exists already.")
        #expect(try Disk.tree(sandbox.target) == ["mine.txt": "file 644: mine"])
    }

    @Test func aFolderWhoseParentIsMissingIsAFileError() throws {
        let sandbox = try Sandbox()
        let archive = try sandbox.archive("model.zip", [.file("top/fine.txt", "fine")])
        let target = sandbox.root.file("missing/model")

        let error = try #require(throws: UnpackError.self) {
            try ArchiveUnpacker.unpack(archive, into: target, maximumBytes: 1_000_000)
        }

        #expect(error.message == "Cannot write \(target): No such file or directory.")
        try sandbox.expectNothingWritten()
    }

    // MARK: Cancelling

    /// The first answer lets the first entry start; the second, before its first block, stops the unpack.
    @Test func cancellingStopsTheUnpackAndRemovesWhatWasWritten() throws {
        let sandbox = try Sandbox()
        let archive = try sandbox.archive("model.zip", [.file("top/fine.txt", "fine"), .zeros("top/zeros", count: 20_000_000)])
        let calls = Atomic(0)

        try sandbox.expectRefusal(
            of: archive, maximumBytes: 100_000_000, isCancelled: { calls.add(1, ordering: .relaxed).newValue > 1 },
            with: .cancelled, message: "Unpacking was cancelled.")
        #expect(calls.load(ordering: .relaxed) == 2)
    }
}

/// A temporary folder holding `archives/`, a sibling `outside/` folder with one file, and the target's place.
private struct Sandbox {
    let root = TemporaryFolder()
    var target: String { root.file("model") }
    var outside: String { root.file("outside") }
    private static let outsideTree = ["sentinel.txt": "file 644: keep"]

    init() throws {
        try FileManager.default.createDirectory(atPath: root.file("archives"), withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: false)
        try Disk.write("keep", to: outside + "/sentinel.txt")
    }

    /// Makes `archives/name` with Debian's Python: a zip, or a tar compressed as the name's extension says.
    func archive(_ name: String, _ entries: [ArchiveSpec.Entry]) throws -> String {
        let path = root.file("archives/" + name)
        let json = String(decoding: try JSONEncoder().encode(entries), as: UTF8.self)
        try output(of: "/usr/bin/python3", "-c", ArchiveSpec.script, path, json)
        return path
    }

    /// Unpacks `archive` expecting `error`, then checks that nothing is left or was written outside.
    func expectRefusal(
        of archive: String, maximumBytes: Int64 = 1_000_000, isCancelled: @Sendable () -> Bool = { false },
        with expected: UnpackError? = nil, message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let error = try #require(throws: UnpackError.self, sourceLocation: sourceLocation) {
            try ArchiveUnpacker.unpack(archive, into: target, maximumBytes: maximumBytes, isCancelled: isCancelled)
        }
        if let expected {
            #expect(error == expected, sourceLocation: sourceLocation)
        }
        #expect(error.message == message, sourceLocation: sourceLocation)
        try expectNothingWritten(sourceLocation: sourceLocation)
    }

    func expectNothingWritten(sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(!FileManager.default.fileExists(atPath: target), sourceLocation: sourceLocation)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() == ["archives", "outside"],
            sourceLocation: sourceLocation)
        #expect(try Disk.tree(outside) == Self.outsideTree, sourceLocation: sourceLocation)
    }
}

/// Entries for the archive-making script, and the script.
private enum ArchiveSpec {
    struct Entry: Encodable {
        let name: String
        let type: String
        var text: String?
        var zeros: Int?
        var random: Int?
        var target: String?
        var mode: Int?
        var stored: Bool?

        static func file(_ name: String, _ text: String, mode: Int = 0o644) -> Entry {
            Entry(name: name, type: "file", text: text, mode: mode)
        }
        /// Stored in a zip as is, without compression.
        static func stored(_ name: String, _ text: String) -> Entry { Entry(name: name, type: "file", text: text, stored: true) }
        /// `count` zero bytes, which deflate squeezes a thousandfold.
        static func zeros(_ name: String, count: Int) -> Entry { Entry(name: name, type: "file", zeros: count) }
        /// `count` pseudo-random bytes, which do not compress.
        static func random(_ name: String, count: Int) -> Entry { Entry(name: name, type: "file", random: count) }
        static func folder(_ name: String) -> Entry { Entry(name: name, type: "folder", mode: 0o755) }
        static func symbolicLink(_ name: String, to target: String) -> Entry { Entry(name: name, type: "symlink", target: target) }
        static func hardLink(_ name: String, to target: String) -> Entry { Entry(name: name, type: "hardlink", target: target) }
        static func namedPipe(_ name: String) -> Entry { Entry(name: name, type: "fifo") }
        static func characterDevice(_ name: String) -> Entry { Entry(name: name, type: "chardevice") }
    }

    /// Writes the entries in order as given, names untouched (`zipfile` and `tarfile` only sanitize on extraction).
    static let script = """
        import io, json, random, sys, tarfile, zipfile
        path, entries = sys.argv[1], json.loads(sys.argv[2])
        def data(entry):
            if entry.get("zeros") is not None:
                return bytes(entry["zeros"])
            if entry.get("random") is not None:
                return random.Random(1).randbytes(entry["random"])
            return (entry.get("text") or "").encode()
        if path.endswith(".zip"):
            with zipfile.ZipFile(path, "w") as archive:
                for entry in entries:
                    info = zipfile.ZipInfo(entry["name"])
                    info.compress_type = zipfile.ZIP_STORED if entry.get("stored") else zipfile.ZIP_DEFLATED
                    kind = 0o040000 if entry["type"] == "folder" else 0o100000
                    info.external_attr = (kind | (entry.get("mode") or 0o644)) << 16
                    archive.writestr(info, data(entry))
        else:
            compression = {"gz": "gz", "bz2": "bz2", "xz": "xz"}.get(path.rsplit(".", 1)[-1], "")
            types = {"file": tarfile.REGTYPE, "folder": tarfile.DIRTYPE, "symlink": tarfile.SYMTYPE,
                     "hardlink": tarfile.LNKTYPE, "fifo": tarfile.FIFOTYPE, "chardevice": tarfile.CHRTYPE}
            with tarfile.open(path, "w:" + compression) as archive:
                for entry in entries:
                    info = tarfile.TarInfo(entry["name"])
                    info.type = types[entry["type"]]
                    info.mode = entry.get("mode") or 0o644
                    info.linkname = entry.get("target") or ""
                    if entry["type"] == "chardevice":
                        info.devmajor, info.devminor = 1, 3
                    body = data(entry) if entry["type"] == "file" else b""
                    info.size = len(body)
                    archive.addfile(info, io.BytesIO(body))
        """
}

/// What a user would see of a folder.
private enum Disk {
    /// Every path under `folder`, relative, with what it is: `file 600: contents`, `folder 700`, `link to target`.
    /// Links are not followed.
    static func tree(_ folder: String) throws -> [String: String] {
        var tree: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let path = folder + "/" + name
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let mode = String((attributes[.posixPermissions] as? Int ?? 0), radix: 8)
            switch attributes[.type] as? FileAttributeType {
            case .typeDirectory:
                tree[name] = "folder \(mode)"
                for (inner, description) in try Self.tree(path) {
                    tree[name + "/" + inner] = description
                }
            case .typeSymbolicLink:
                tree[name] = "link to \(try FileManager.default.destinationOfSymbolicLink(atPath: path))"
            case .typeRegular:
                tree[name] = "file \(mode): \(try String(contentsOfFile: path, encoding: .utf8))"
            default:
                tree[name] = "something else"
            }
        }
        return tree
    }

    /// Writes a file readable by all, whatever the umask.
    static func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
    }

    static func mode(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? 0
    }

    static func size(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    }

    static func linkCount(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.referenceCount] as? Int ?? 0
    }
}
