import Downloading
import Foundation
import NotulaTestSupport
import Testing

/// Downloads with the real libcurl from the loopback test server: what lands in the file, what the
/// server was asked, and what the user is told when it goes wrong.
@Suite struct DownloadTests {
    /// One call of the progress callback.
    struct Report: Equatable, Sendable {
        let received: Int64
        let total: Int64?
    }

    /// Runs `download`, gathering its progress reports.
    static func run(_ download: HTTPDownload) async -> (result: Result<Void, DownloadError>, reports: [Report]) {
        let (reports, sink) = AsyncStream.makeStream(of: Report.self)
        let result: Result<Void, DownloadError>
        do throws(DownloadError) {
            try await download.run { received, total in sink.yield(Report(received: received, total: total)) }
            result = .success(())
        } catch {
            result = .failure(error)
        }
        sink.finish()
        var gathered: [Report] = []
        for await report in reports { gathered.append(report) }
        return (result, gathered)
    }

    /// A file of `count` random bytes; random so that a byte out of place shows.
    static func randomFile(_ count: Int, in folder: TemporaryFolder, name: String = "source.zip") throws -> (path: String, bytes: [UInt8]) {
        let random = try #require(FileHandle(forReadingAtPath: "/dev/urandom"))
        defer { try? random.close() }
        let bytes = [UInt8](random.readData(ofLength: count))
        let path = folder.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return (path, bytes)
    }

    static func contents(of path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func aWholeDownloadWritesTheServedBytesAndReportsProgressToTheEnd() async throws {
        let folder = TemporaryFolder()
        let source = try Self.randomFile(1_000_000, in: folder)
        let server = try TestHTTPServer(routes: ["/models/ko.zip": .file(source.path, contentType: "application/zip")])
        let partial = folder.file("downloads/models/ko.zip.part")

        let (result, reports) = await Self.run(
            HTTPDownload(url: server.url(for: "/models/ko.zip"), partialFile: partial, maximumBytes: 1_000_000))

        try result.get()
        #expect(try Self.contents(of: partial) == source.bytes)
        #expect(reports.last == Report(received: 1_000_000, total: 1_000_000))
        #expect(reports.allSatisfy { $0.total == 1_000_000 })
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.received <= $1.received })
        let fileMode = try FileManager.default.attributesOfItem(atPath: partial)[.posixPermissions] as? Int
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder.file("downloads/models"))[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
        #expect(folderMode == 0o700)
        #expect(try server.requests == [TestHTTPServer.Request(method: "GET", path: "/models/ko.zip", range: nil)])
    }

    @Test func aRedirectIsFollowed() async throws {
        let folder = TemporaryFolder()
        let source = try Self.randomFile(50_000, in: folder)
        let server = try TestHTTPServer(routes: ["/latest.zip": .redirect(to: "/models/ko.zip"), "/models/ko.zip": .file(source.path)])
        let partial = folder.file("ko.zip.part")

        try await HTTPDownload(url: server.url(for: "/latest.zip"), partialFile: partial, maximumBytes: 50_000).run { _, _ in }

        #expect(try Self.contents(of: partial) == source.bytes)
        #expect(try server.requests.map(\.path) == ["/latest.zip", "/models/ko.zip"])
    }

    @Test func anInterruptedDownloadKeepsItsBytesAndResumesWithARange() async throws {
        let folder = TemporaryFolder()
        let source = try Self.randomFile(1_000_000, in: folder)
        let server = try TestHTTPServer(routes: ["/models/ko.zip": .file(source.path, truncateAfter: 300_000)])
        let url = server.url(for: "/models/ko.zip")
        let partial = folder.file("ko.zip.part")

        let (first, _) = await Self.run(HTTPDownload(url: url, partialFile: partial, maximumBytes: 1_000_000))

        #expect(first.failure == .interrupted(received: 300_000, expected: 1_000_000))
        #expect(
            first.failure?.message
                == "The download stopped after 300.0 kB of 1.0 MB; it resumes where it stopped when installed again.")
        #expect(try Self.contents(of: partial) == Array(source.bytes.prefix(300_000)))

        let (second, reports) = await Self.run(HTTPDownload(url: url, partialFile: partial, maximumBytes: 1_000_000))

        try second.get()
        #expect(try server.requests.map(\.range) == [nil, "bytes=300000-"])
        #expect(reports.first.map { $0.received > 300_000 } == true)
        #expect(reports.last == Report(received: 1_000_000, total: 1_000_000))
        #expect(try Self.contents(of: partial) == source.bytes)
        try HTTPDownload.verify(file: partial, bytes: 1_000_000, checksum: .md5(MD5.hexDigest(of: source.bytes)))
    }

    @Test func aServerThatIgnoresTheRangeStartsTheFileOver() async throws {
        let folder = TemporaryFolder()
        let source = try Self.randomFile(100_000, in: folder)
        let server = try TestHTTPServer(routes: ["/models/ko.zip": .file(source.path)])
        let partial = folder.file("ko.zip.part")
        // More bytes than the file has: the server answers 416, and the download starts over without a Range.
        try Data(repeating: 0xAA, count: 150_000).write(to: URL(fileURLWithPath: partial))

        try await HTTPDownload(url: server.url(for: "/models/ko.zip"), partialFile: partial, maximumBytes: 200_000).run { _, _ in }

        #expect(try server.requests.map(\.range) == ["bytes=150000-", nil])
        #expect(try Self.contents(of: partial) == source.bytes)
    }

    @Test(arguments: [(404, "Not Found"), (500, "Internal Server Error")])
    func anErrorStatusIsReportedAndLeavesOnlyBytesToResume(status: Int, phrase: String) async throws {
        let folder = TemporaryFolder()
        let server = try TestHTTPServer(routes: ["/models/ko.zip": .status(status)])
        let url = server.url(for: "/models/ko.zip")
        let fresh = folder.file("fresh.part")
        let resumed = folder.file("resumed.part")
        let earlierBytes = [UInt8](repeating: 7, count: 1000)
        try Data(earlierBytes).write(to: URL(fileURLWithPath: resumed))

        let (fromScratch, _) = await Self.run(HTTPDownload(url: url, partialFile: fresh, maximumBytes: 1_000_000))
        let (resuming, _) = await Self.run(HTTPDownload(url: url, partialFile: resumed, maximumBytes: 1_000_000))

        #expect(fromScratch.failure == .httpStatus(code: status, url: url))
        #expect(fromScratch.failure?.message == "The server answered \(status) (\(phrase)) for \(url).")
        #expect(resuming.failure == .httpStatus(code: status, url: url))
        #expect(!FileManager.default.fileExists(atPath: fresh), "an empty partial file has nothing to resume")
        #expect(try Self.contents(of: resumed) == earlierBytes)
    }

    @Test func aRefusedConnectionIsUnreachable() async throws {
        let folder = TemporaryFolder()
        let port = try closedLoopbackPort()
        let url = "http://127.0.0.1:\(port)/models/ko.zip"

        let partial = folder.file("ko.zip.part")

        let (result, reports) = await Self.run(HTTPDownload(url: url, partialFile: partial, maximumBytes: 1_000_000))

        let error = try #require(result.failure)
        guard case .unreachable(url: url, reason: let reason) = error else {
            Issue.record("expected .unreachable, got \(error)")
            return
        }
        #expect(reason.contains("127.0.0.1 port \(port)"))
        #expect(reason.contains("Couldn't connect to server"))
        #expect(error.message.hasPrefix("Could not reach \(url): "))
        #expect(reports.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: partial), "an empty partial file has nothing to resume")
    }

    // The limit only keeps a broken cancel from hanging the run; a partial file shorter than the source shows
    // the download ended early, without a clock that a loaded machine would stretch.
    @Test(.timeLimit(.minutes(1))) func cancelEndsAThrottledDownloadAndKeepsThePartialFile() async throws {
        let folder = TemporaryFolder()
        let source = try Self.randomFile(5_000_000, in: folder)
        // 50 KB/s: the whole file would take 100 s.
        let server = try TestHTTPServer(routes: ["/models/ko.zip": .file(source.path, rate: 50_000)])
        let partial = folder.file("ko.zip.part")
        let download = HTTPDownload(url: server.url(for: "/models/ko.zip"), partialFile: partial, maximumBytes: 5_000_000)
        let (reports, sink) = AsyncStream.makeStream(of: Report.self)
        let running = Task {
            defer { sink.finish() }
            try await download.run { received, total in sink.yield(Report(received: received, total: total)) }
        }

        var iterator = reports.makeAsyncIterator()
        let firstReport = try #require(await iterator.next())
        download.cancel()
        let failure = await running.result.failure as? DownloadError

        #expect(failure == .cancelled)
        #expect(failure?.message == "The download was cancelled.")
        let kept = try Self.contents(of: partial)
        #expect(kept.count >= Int(firstReport.received))
        #expect(kept.count < source.bytes.count)
        #expect(kept == Array(source.bytes.prefix(kept.count)))
    }

    @Test func cancellingTheAwaitingTaskCancelsTheDownload() async throws {
        let folder = TemporaryFolder()
        let source = try Self.randomFile(5_000_000, in: folder)
        let server = try TestHTTPServer(routes: ["/models/ko.zip": .file(source.path, rate: 50_000)])
        let download = HTTPDownload(
            url: server.url(for: "/models/ko.zip"), partialFile: folder.file("ko.zip.part"), maximumBytes: 5_000_000)
        let (reports, sink) = AsyncStream.makeStream(of: Report.self)
        let running = Task {
            try await download.run { received, total in sink.yield(Report(received: received, total: total)) }
        }

        var iterator = reports.makeAsyncIterator()
        _ = await iterator.next()
        running.cancel()

        #expect(await running.result.failure as? DownloadError == .cancelled)
    }

    @Test func aFullDiskIsReportedAsSuch() async throws {
        let folder = TemporaryFolder()
        let source = try Self.randomFile(100_000, in: folder)
        let server = try TestHTTPServer(routes: ["/models/ko.zip": .file(source.path)])

        // Every write into /dev/full fails with ENOSPC.
        let (result, _) = await Self.run(
            HTTPDownload(url: server.url(for: "/models/ko.zip"), partialFile: "/dev/full", maximumBytes: 100_000))

        #expect(result.failure == .diskFull(path: "/dev/full"))
        #expect(result.failure?.message == "No space left on the disk for /dev/full.")
        let device = try FileManager.default.attributesOfItem(atPath: "/dev/full")[.type] as? FileAttributeType
        #expect(device == .typeCharacterSpecial, "a device that reads as empty is not a partial file to remove")
    }

    @Test func aPartialFileThatCannotBeCreatedIsAFileError() async throws {
        let folder = TemporaryFolder()
        let server = try TestHTTPServer(routes: ["/models/ko.zip": .status(404)])
        // A regular file where the folder should be.
        let blocker = folder.file("blocker")
        try Data().write(to: URL(fileURLWithPath: blocker))

        let (result, _) = await Self.run(
            HTTPDownload(url: server.url(for: "/models/ko.zip"), partialFile: blocker + "/ko.zip.part", maximumBytes: 1_000_000))

        #expect(result.failure == .fileError(path: blocker + "/ko.zip.part", reason: "Not a directory"))
        #expect(try server.requests.isEmpty)
    }

    @Test func verifyChecksTheSizeThenTheChecksum() throws {
        let folder = TemporaryFolder()
        let source = try Self.randomFile(70_000, in: folder)
        let md5 = MD5.hexDigest(of: source.bytes)
        let wrongMD5 = String(repeating: "0", count: 32)

        try HTTPDownload.verify(file: source.path, bytes: 70_000, checksum: Checksum(kind: "md5", hex: md5.uppercased()))
        #expect(throws: DownloadError.sizeMismatch(expected: 70_001, actual: 70_000)) {
            try HTTPDownload.verify(file: source.path, bytes: 70_001, checksum: .md5(wrongMD5))
        }
        #expect(throws: DownloadError.checksumMismatch(kind: "MD5", expected: wrongMD5, actual: md5)) {
            try HTTPDownload.verify(file: source.path, bytes: 70_000, checksum: .md5(wrongMD5))
        }
        #expect(
            DownloadError.checksumMismatch(kind: "MD5", expected: wrongMD5, actual: md5).message
                == "The downloaded file's MD5 checksum is \(md5) where \(wrongMD5) was expected; it is damaged.")
    }

    /// A SHA-1 is checked whole: a sum that matches the file's first digits only is a mismatch.
    @Test func aSha1IsCheckedWhole() throws {
        let folder = TemporaryFolder()
        let source = try Self.randomFile(70_000, in: folder)
        let sha1 = SHA1.hexDigest(of: source.bytes)

        try HTTPDownload.verify(file: source.path, bytes: nil, checksum: .sha1(sha1))
        let sameStart = String(sha1.dropLast()) + (sha1.last == "0" ? "1" : "0")
        #expect(throws: DownloadError.checksumMismatch(kind: "SHA-1", expected: sameStart, actual: sha1)) {
            try HTTPDownload.verify(file: source.path, bytes: nil, checksum: .sha1(sameStart))
        }
        #expect(Checksum(kind: "sha1", hex: String(sha1.prefix(8))) == nil, "8 digits are not a SHA-1")
    }

    @Test func fetchReadsAFileURLAPlainPathAndAnHTTPURL() async throws {
        let folder = TemporaryFolder()
        let catalog = try Self.randomFile(20_000, in: folder, name: "model list.json")
        let server = try TestHTTPServer(routes: ["/vosk/models/model-list.json": .file(catalog.path, contentType: "application/json")])

        let fromPath = try await HTTPDownload.fetch(catalog.path, maximumBytes: 1_000_000)
        let fromFileURL = try await HTTPDownload.fetch(URL(fileURLWithPath: catalog.path).absoluteString, maximumBytes: 1_000_000)
        let fromServer = try await HTTPDownload.fetch(server.url(for: "/vosk/models/model-list.json"), maximumBytes: 1_000_000)

        #expect(fromPath == catalog.bytes)
        #expect(fromFileURL == catalog.bytes)
        #expect(fromServer == catalog.bytes)
    }

    @Test func fetchRefusesADocumentOverTheLimit() async throws {
        let folder = TemporaryFolder()
        let catalog = try Self.randomFile(20_000, in: folder, name: "model-list.json")
        let server = try TestHTTPServer(routes: ["/model-list.json": .file(catalog.path)])

        await #expect(throws: DownloadError.tooLarge(limit: 19_999)) {
            try await HTTPDownload.fetch(server.url(for: "/model-list.json"), maximumBytes: 19_999)
        }
        await #expect(throws: DownloadError.tooLarge(limit: 19_999)) {
            try await HTTPDownload.fetch(catalog.path, maximumBytes: 19_999)
        }
        #expect(DownloadError.tooLarge(limit: 19_999).message == "The document is larger than 20.0 kB, the most that is accepted.")
    }

    @Test func fetchReportsAnErrorStatusAndAMissingFile() async throws {
        let server = try TestHTTPServer(routes: [:])
        let url = server.url(for: "/model-list.json")

        await #expect(throws: DownloadError.httpStatus(code: 404, url: url)) {
            try await HTTPDownload.fetch(url, maximumBytes: 1_000_000)
        }
        let missing = "/nonexistent-\(UUID().uuidString)/model-list.json"
        do throws(DownloadError) {
            _ = try await HTTPDownload.fetch(missing, maximumBytes: 1_000_000)
            Issue.record("fetched a missing file")
        } catch {
            #expect(error.message.contains(missing))
        }
    }
}

extension Result {
    /// The error, or `nil` for a success.
    var failure: Failure? {
        guard case .failure(let error) = self else { return nil }
        return error
    }
}
