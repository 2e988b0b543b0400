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

    /// The helper a fetch of `url` started, found among this process's children by its command line: the address
    /// names the case's own server, as other cases' helpers run beside it.
    static func helperProcess(fetching url: String) throws -> Int32? {
        try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap(Int32.init).first { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 2, Int32(fields[1]) == getpid(),
                let command = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")
            else { return false }
            let arguments = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.contains(DocumentFetcher.helperArgument) && arguments.contains(url)
        }
    }

    /// The helper runs with no session bus address, no descriptor but its standard three, and its address space capped.
    @Test(.timeLimit(.minutes(3))) func theHelperHasNoSessionBusNoOtherDescriptorAndAMemoryLimit() async throws {
        #expect(getenv("DBUS_SESSION_BUS_ADDRESS") != nil, "run under scripts/private-session, which gives this process a bus")
        // A descriptor this process holds without close-on-exec, as a careless library's would be.
        let leaked = open("/dev/null", O_RDONLY)
        defer { close(leaked) }
        let server = try TestHTTPServer(routes: ["/list.json": .endless(rate: 1_000)])
        let url = server.url(for: "/list.json")
        let fetch = Task { await Self.fetch(Self.helper, url, maximumBytes: 1_000_000) }
        defer { fetch.cancel() }
        try await poll(within: .seconds(150), until: { (try? server.requests.isEmpty) == false }) { Stalled() }
        let helper = try #require(try Self.helperProcess(fetching: url))

        let environment = String(decoding: try #require(FileManager.default.contents(atPath: "/proc/\(helper)/environ")), as: UTF8.self)
        #expect(!environment.contains("DBUS_SESSION_BUS_ADDRESS"))
        #expect(!environment.contains("WAYLAND_DISPLAY") && !environment.contains("XDG_RUNTIME_DIR"))
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(helper)/fd").compactMap(Int32.init)
        // 0–2, and what libcurl and the runtime open for themselves (a socket, an eventfd), all past the leaked one's
        // number or not inherited: none of them is ours.
        let inherited = descriptors.filter { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(helper)/fd/\(descriptor)")) == "/dev/null"
                && descriptor > 2
        }
        #expect(inherited.isEmpty, "\(descriptors)")
        let limits = try String(contentsOfFile: "/proc/\(helper)/limits", encoding: .utf8)
        let line = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max address space") })
        let soft = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first
        // 1 GiB for the runtime and libcurl, and the largest document.
        #expect(soft.flatMap { Int($0) } == (1 << 30) + 1_000_000, "\(line)")

        fetch.cancel()
        #expect(await fetch.value.failure == .cancelled)
    }

    struct Stalled: Error {}
}
