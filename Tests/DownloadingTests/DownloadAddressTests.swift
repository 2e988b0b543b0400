import Testing

@testable import Downloading

/// Where a model is downloaded from and redirected to, as `DownloadAddress` decides before libcurl connects.
@Suite struct DownloadAddressTests {
    @Test(arguments: [
        "https://alphacephei.com/vosk/models/vosk-model-small-ko-0.22.zip", "HTTPS://alphacephei.com/x.zip",
        "http://127.0.0.1:8080/x.zip", "http://127.1.2.3/x.zip", "http://localhost/x.zip", "http://[::1]:8080/x.zip",
    ])
    func httpsAndLoopbackHTTPAreDownloadedFrom(_ address: String) throws {
        try DownloadAddress.check(address)
    }

    @Test(arguments: [
        "file:///dev/zero", "FILE:///etc/passwd", "ftp://alphacephei.com/x.zip", "http://alphacephei.com/x.zip",
        "http://127.0.0.1.example.com/x.zip", "http://127.0.0.1@example.com/x.zip", "http://128.0.0.1/x.zip",
        "http://127.0.0.256/x.zip", "https:///x.zip", "/home/user/x.zip", "x.zip", "",
    ])
    func anythingElseIsRefused(_ address: String) {
        #expect(throws: DownloadError.refusedAddress(url: address)) { try DownloadAddress.check(address) }
    }

    @Test(arguments: [
        ("https://a.example/x.zip", "https://b.example/y.zip"), ("https://a.example/x.zip", "/y.zip"),
        ("http://127.0.0.1:80/x.zip", "https://b.example/y.zip"), ("http://127.0.0.1:80/x.zip", "y.zip"),
        ("http://127.0.0.1:80/x.zip", "http://localhost:81/y.zip"),
    ])
    func aRedirectToAnAllowedAddressIsFollowed(from current: String, to location: String) throws {
        try DownloadAddress.checkRedirect(from: current, to: location)
    }

    @Test(arguments: [
        ("https://a.example/x.zip", "http://a.example/x.zip", "http://a.example/x.zip"),
        ("https://a.example/x.zip", "http://127.0.0.1/x.zip", "http://127.0.0.1/x.zip"),
        ("https://a.example/x.zip", "file:///dev/zero", "file:///dev/zero"),
        ("http://127.0.0.1/x.zip", "//example.invalid/y.zip", "http://example.invalid/y.zip"),
        ("http://127.0.0.1/x.zip", "ftp://127.0.0.1/y.zip", "ftp://127.0.0.1/y.zip"),
    ])
    func aRedirectOffHTTPSOrOffThisMachineIsRefused(from current: String, to location: String, resolved: String) {
        #expect(throws: DownloadError.refusedRedirect(from: current, to: resolved)) {
            try DownloadAddress.checkRedirect(from: current, to: location)
        }
    }
}
