import Downloading
import Foundation
import NotulaTestSupport
import Testing

/// MD5, SHA-1 and SHA-256 against their standards' test vectors and coreutils' `md5sum`, `sha1sum` and `sha256sum`.
@Suite struct ChecksumTests {
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

    @Test(arguments: [
        ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"),
        (String(repeating: "01234567", count: 80), "dea356a2cddd90c7a7ecedc5ebb563934f460452"),
    ])
    func theRFC3174TestSuite(message: String, digest: String) {
        #expect(SHA1.hexDigest(of: Array(message.utf8)) == digest)
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func theFIPS180TestVectors(message: String, digest: String) {
        #expect(SHA256.hexDigest(of: Array(message.utf8)) == digest)
    }

    /// Lengths around the 64-byte block and the 56 bytes where the length no longer fits with the padding,
    /// and a few MB that cross the 64 KiB reads unevenly.
    @Test(arguments: [55, 56, 57, 63, 64, 65, 119, 120, 128, 65_537, 3_000_017])
    func filesAndBytesHashAsCoreutilsHashesThem(count: Int) throws {
        let folder = TemporaryFolder()
        let path = folder.file("data")
        let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        defer { try? random.close() }
        let bytes = [UInt8](random.readData(ofLength: count))
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let md5 = String(try output(of: "md5sum", path).prefix(32))
        let sha1 = String(try output(of: "sha1sum", path).prefix(40))
        let sha256 = String(try output(of: "sha256sum", path).prefix(64))

        #expect(try MD5.hexDigest(ofFile: path) == md5)
        #expect(MD5.hexDigest(of: bytes) == md5)
        #expect(try SHA1.hexDigest(ofFile: path) == sha1)
        #expect(SHA1.hexDigest(of: bytes) == sha1)
        #expect(try SHA256.hexDigest(ofFile: path) == sha256)
        #expect(SHA256.hexDigest(of: bytes) == sha256)
    }

    @Test func aMissingFileIsAFileError() {
        let path = "/nonexistent-\(UUID().uuidString)"

        #expect(throws: DownloadError.fileError(path: path, reason: "No such file or directory")) {
            try MD5.hexDigest(ofFile: path)
        }
    }
}
