import Downloading
import Foundation
import NotulaTestSupport
import Testing

/// What a server cannot make a download do: grow past the size expected, take the disk's last room, read the
/// local disk, or lead it off https; and what the user is told instead.
@Suite struct DownloadLimitTests {
    static func bytes(of path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
    }

    @Test func aBodyWithoutEndStopsAtTheSizeExpected() async throws {
        let folder = TemporaryFolder()
        let server = try TestHTTPServer(routes: ["/models/ko.zip": .endless()])
        let partial = folder.file("ko.zip.part")

        let (result, _) = await DownloadTests.run(
            HTTPDownload(url: server.url(for: "/models/ko.zip"), partialFile: partial, maximumBytes: 1_000_000))

        #expect(result.failure == .largerThanExpected(limit: 1_000_000, announced: nil))
        #expect(
            result.failure?.message
                == "The server sent more than the 1.0 MB expected for this file; the download was stopped there.")
        #expect(Self.bytes(of: partial).map { $0 <= 1_000_000 } == true, "\(Self.bytes(of: partial) ?? -1) bytes written")
    }

    @Test func anAbsurdContentLengthIsRefusedBeforeAByteIsWritten() async throws {
        let folder = TemporaryFolder()
        let source = try DownloadTests.randomFile(100_000, in: folder)
        let server = try TestHTTPServer(routes: ["/models/ko.zip": .file(source.path, announcing: 1_000_000_000_000_000_000)])
        let partial = folder.file("ko.zip.part")

        let (result, reports) = await DownloadTests.run(
            HTTPDownload(url: server.url(for: "/models/ko.zip"), partialFile: partial, maximumBytes: 100_000))

        #expect(result.failure == .largerThanExpected(limit: 100_000, announced: 1_000_000_000_000_000_000))
        #expect(result.failure?.message == "The server announced 1000000.0 TB for a file of 100.0 kB; nothing was downloaded.")
        #expect(Self.bytes(of: partial) == nil, "an empty partial file is removed")
        #expect(reports.isEmpty)
    }

    @Test func sizesUpToTheLargestAreWrittenWithoutOverflow() {
        #expect(
            DownloadError.interrupted(received: .max, expected: .max).message
                == "The download stopped after 9223372.0 TB of 9223372.0 TB; it resumes where it stopped when installed again.")
        #expect(
            DownloadError.interrupted(received: 999, expected: 1_949_999).message.hasPrefix(
                "The download stopped after 999 bytes of 1.9 MB"))
    }

    @Test func aDownloadThatWouldTakeTheRoomKeptFreeIsRefusedBeforeAByteIsWritten() async throws {
        let folder = TemporaryFolder()
        let source = try DownloadTests.randomFile(100_000, in: folder)
        let server = try TestHTTPServer(routes: ["/models/ko.zip": .file(source.path)])
        let partial = folder.file("ko.zip.part")

        let (result, _) = await DownloadTests.run(
            HTTPDownload(url: server.url(for: "/models/ko.zip"), partialFile: partial, maximumBytes: 100_000, keepingFree: .max))

        guard case .noRoom(partial, needed: 100_000, free: let free, keptFree: .max)? = result.failure else {
            Issue.record("expected .noRoom, got \(String(describing: result.failure))")
            return
        }
        #expect(free > 0)
        #expect(result.failure?.message.hasPrefix("Not enough room on the disk for \(partial): the download needs 100.0 kB more") == true)
        #expect(Self.bytes(of: partial) == nil, "an empty partial file is removed")
    }

    @Test(arguments: ["file:///dev/zero", "ftp://127.0.0.1/ko.zip", "http://example.com/ko.zip", "gopher://localhost/ko.zip", "ko.zip"])
    func anAddressOtherThanHTTPSIsRefusedBeforeTheFileIsMade(_ address: String) async throws {
        let folder = TemporaryFolder()
        let partial = folder.file("downloads/ko.zip.part")

        let (result, _) = await DownloadTests.run(HTTPDownload(url: address, partialFile: partial, maximumBytes: 1_000_000))

        #expect(result.failure == .refusedAddress(url: address))
        #expect(
            result.failure?.message == "Files are downloaded only over https (plain http only from this machine), not from \(address).")
        #expect(!FileManager.default.fileExists(atPath: folder.file("downloads")))
    }

    @Test(arguments: ["https://127.0.0.1", "http://127.0.0.1", "http://localhost", "http://[::1]"])
    func httpsAndLoopbackHTTPAreTried(_ origin: String) async throws {
        let folder = TemporaryFolder()
        let url = "\(origin):\(try closedLoopbackPort())/ko.zip"

        let (result, _) = await DownloadTests.run(HTTPDownload(url: url, partialFile: folder.file("ko.zip.part"), maximumBytes: 1_000))

        guard case .unreachable? = result.failure else {
            Issue.record("expected the connection to be tried, got \(String(describing: result.failure))")
            return
        }
    }

    @Test(arguments: ["http://example.invalid/ko.zip", "file:///etc/passwd", "//example.invalid/ko.zip"])
    func aRedirectOffLoopbackHTTPIsNotFollowed(_ location: String) async throws {
        let folder = TemporaryFolder()
        let server = try TestHTTPServer(routes: ["/latest.zip": .redirect(to: location)])
        let url = server.url(for: "/latest.zip")
        let partial = folder.file("ko.zip.part")

        let (result, _) = await DownloadTests.run(HTTPDownload(url: url, partialFile: partial, maximumBytes: 1_000_000))

        let target = location.hasPrefix("//") ? "http:" + location : location
        #expect(result.failure == .refusedRedirect(from: url, to: target))
        #expect(
            result.failure?.message
                == "The server at \(url) redirected the download to \(target), which is not https; the redirect was not followed.")
        #expect(try server.requests.map(\.path) == ["/latest.zip"])
        #expect(Self.bytes(of: partial) == nil, "an empty partial file is removed")
    }

    @Test func aLinkInThePartialFilesPlaceIsNotFollowed() async throws {
        let folder = TemporaryFolder()
        let source = try DownloadTests.randomFile(1_000, in: folder)
        let victim = folder.file("victim")
        try Data("keep".utf8).write(to: URL(fileURLWithPath: victim))
        let partial = folder.file("ko.zip.part")
        try FileManager.default.createSymbolicLink(atPath: partial, withDestinationPath: victim)
        let server = try TestHTTPServer(routes: ["/models/ko.zip": .file(source.path)])

        let (result, _) = await DownloadTests.run(
            HTTPDownload(url: server.url(for: "/models/ko.zip"), partialFile: partial, maximumBytes: 1_000))

        guard case .fileError(partial, reason: _)? = result.failure else {
            Issue.record("expected .fileError, got \(String(describing: result.failure))")
            return
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep")
    }
}
