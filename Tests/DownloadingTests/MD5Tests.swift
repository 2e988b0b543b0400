import Downloading
import Foundation
import NotulaTestSupport
import Testing

/// MD5 against RFC 1321's test suite and coreutils' `md5sum`.
@Suite struct MD5Tests {
    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
        (String(repeating: "1234567890", count: 8), "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func theRFC1321TestSuite(message: String, digest: String) {
        #expect(MD5.hexDigest(of: Array(message.utf8)) == digest)
    }

    /// Lengths around the 64-byte block and the 56 bytes where the length no longer fits with the padding,
    /// and a few MB that cross the 64 KiB reads unevenly.
    @Test(arguments: [55, 56, 57, 63, 64, 65, 119, 120, 128, 65_537, 3_000_017])
    func filesAndBytesHashAsMd5sumHashesThem(count: Int) throws {
        let folder = TemporaryFolder()
        let path = folder.file("data")
        let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        defer { try? random.close() }
        let bytes = [UInt8](random.readData(ofLength: count))
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let expected = String(try output(of: "md5sum", path).prefix(32))

        #expect(try MD5.hexDigest(ofFile: path) == expected)
        #expect(MD5.hexDigest(of: bytes) == expected)
    }

    @Test func aMissingFileIsAFileError() {
        let path = "/nonexistent-\(UUID().uuidString)"

        #expect(throws: DownloadError.fileError(path: path, reason: "No such file or directory")) {
            try MD5.hexDigest(ofFile: path)
        }
    }
}
