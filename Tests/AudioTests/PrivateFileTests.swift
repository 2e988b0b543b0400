import Foundation
import NotulaTestSupport
import Recording
import Testing

/// The one way notulad makes files, under the umask the tests run with (022: others may read by
/// default): 0600 from the first byte, never tightened afterwards.
@Suite("Private files")
struct PrivateFileTests {
    @Test func aReplacedFileIsTheUsersAloneFromItsFirstByte() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let file = folder.recordings + "/settings.json"
        try PrivateFiles.makeFolder(folder.recordings)
        #expect(try permissions(of: folder.recordings) == 0o700)
        // What a crash left behind, readable by all: not a reason to fail, nor a mode to keep.
        _ = FileManager.default.createFile(atPath: file + ".new", contents: Data("old".utf8), attributes: [.posixPermissions: 0o644])
        let watch = try FileWatch([folder.recordings])

        try PrivateFiles.replace(file, with: Array("first".utf8))
        try PrivateFiles.replace(file, with: Array("second".utf8))

        watch.read()
        #expect(watch.made.count == 4, "two staging files made, two renamed in: \(watch.made)")
        #expect(watch.changedAttributes.isEmpty, "modes changed after the files were made: \(watch.changedAttributes)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "second")
        #expect(try permissions(of: file) == 0o600)
        #expect(!FileManager.default.fileExists(atPath: file + ".new"))
    }

    @Test func aFileThatExistsIsNotMadeAgain() throws {
        let folder = TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path + "/library.sqlite3"
        try PrivateFiles.makeFolder(folder.path)
        close(try PrivateFiles.create(file))
        #expect(try permissions(of: file) == 0o600)
        #expect(throws: FileError.self) { _ = try PrivateFiles.create(file) }
    }
}
