import Downloading
import Foundation
import NotulaTestSupport
import Testing

/// A document fetched by a helper process (the built `notulad`, which serves `--fetch-document`) comes back as
/// one fetched here would, its failures included.
@Suite struct DocumentFetcherTests {
    static let helper = DocumentFetcher.helper(executable: binaryDirectory.appendingPathComponent("notulad").path)

    static func fetch(_ fetcher: DocumentFetcher, _ url: String, maximumBytes: Int) async -> Result<[UInt8], DownloadError> {
        do throws(DownloadError) { return .success(try await fetcher.fetch(url, maximumBytes: maximumBytes)) } catch {
            return .failure(error)
        }
    }

    @Test func theHelpersDocumentIsTheServedBytes() async throws {
        let folder = TemporaryFolder()
        let source = try DownloadTests.randomFile(300_000, in: folder, name: "list.json")
        let server = try TestHTTPServer(routes: ["/list.json": .file(source.path)])

        let bytes = try await Self.helper.fetch(server.url(for: "/list.json"), maximumBytes: 1_000_000)

        #expect(bytes == source.bytes)
    }

    @Test(arguments: [404, 500])
    func theHelpersFailureIsTheOneFetchingHereGives(status: Int) async throws {
        let server = try TestHTTPServer(routes: ["/list.json": .status(status)])
        let url = server.url(for: "/list.json")

        let there = await Self.fetch(Self.helper, url, maximumBytes: 1_000)
        let here = await Self.fetch(.inProcess, url, maximumBytes: 1_000)

        #expect(there.failure == .httpStatus(code: status, url: url))
        #expect(there.failure == here.failure)
    }

    @Test func aDocumentOverTheLimitIsTooLargeThereToo() async throws {
        let folder = TemporaryFolder()
        let source = try DownloadTests.randomFile(100_000, in: folder, name: "list.json")
        let server = try TestHTTPServer(routes: ["/list.json": .file(source.path)])

        let result = await Self.fetch(Self.helper, server.url(for: "/list.json"), maximumBytes: 10_000)

        #expect(result.failure == .tooLarge(limit: 10_000))
    }

    @Test func aProgramThatIsNoHelperFailsSayingHowItEnded() async throws {
        let result = await Self.fetch(.helper(executable: "/bin/false"), "http://127.0.0.1:1/list.json", maximumBytes: 1_000)

        #expect(result.failure == .setupFailed(reason: "the fetching process /bin/false ended with status 1"))
    }

    // The limit only keeps a broken cancel from hanging the run: against an endless server, `.cancelled` itself
    // shows the helper was killed and reaped, as the answer waits for both. The wait for the helper's request is
    // long because in the main pass other suites hold both cooperative threads for tens of seconds (CI once saw no
    // request within 30 s); it ends at the request.
    @Test(.timeLimit(.minutes(3))) func cancellingTheTaskEndsTheHelper() async throws {
        // 1 kB/s without end: the fetch would never finish by itself.
        let server = try TestHTTPServer(routes: ["/list.json": .endless(rate: 1_000)])
        let url = server.url(for: "/list.json")
        let fetch = Task { await Self.fetch(Self.helper, url, maximumBytes: 1_000_000) }
        try await poll(within: .seconds(150), until: { (try? server.requests.isEmpty) == false }) { Stalled() }

        fetch.cancel()
        let result = await fetch.value

        #expect(result.failure == .cancelled)
    }

    struct Stalled: Error {}
}
