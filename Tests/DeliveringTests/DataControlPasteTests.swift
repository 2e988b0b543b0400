import Foundation
import NotulaTestSupport
import Testing

@testable import Delivering

/// The data-control clipboard on sway, read with wl-paste: every type of the user's clipboard put back, and the
/// dictation offered with the password manager's hint.
extension WaylandPasteTests {
    private var environment: [String: String] { sway.environment.merging(["LC_ALL": "C.UTF-8"]) { $1 } }

    private func types() throws -> [String] {
        let listed = try run("/usr/bin/wl-paste", ["--list-types"], environment: environment)
        return listed.status == 0 ? listed.output.split(separator: "\n").map(String.init) : []
    }

    @Test func aClipboardOfTextHTMLAndAnImageIsBackWithEveryTypeByteForByte() async throws {
        let owner = try #require(DataControlClipboard(environment: sway.environment))
        let previous = ClipboardContents(items: [
            .init(type: "text/html", bytes: Array("<b>copied</b> ß 한\n".utf8)),
            .init(type: "text/plain;charset=utf-8", bytes: Array("copied ß 한".utf8)),
            .init(type: "image/png", bytes: Array(imageBytes)),
        ])
        // Offered by Notula's own client, as no Debian tool offers several types at once; read back by wl-paste.
        _ = try await owner.take(.putBack(previous), timeLimit: .seconds(5))
        let terminal = try await sway.openTerminal()
        defer { try? sway.close(terminal) }
        let text = "Pasted over text, HTML and an image: ß é 한 😀"

        try await targets.paste().get().deliver(text)

        try await waitUntilTyped(text) { terminal.typed() }
        let offered = try types()
        for item in previous.items {
            #expect(offered.contains(item.type))
            let bytes = try bytesPrinted(by: "/usr/bin/wl-paste --no-newline --type '\(item.type)'", environment: environment)
            #expect(Array(bytes) == item.bytes, "\(item.type)")
        }
        #expect(!offered.contains(ClipboardOffer.sensitiveHint.type))
    }

    @Test func theDictationIsOfferedAsASecretAndOnlyAReadAfterTheKeystrokeIsThePaste() async throws {
        let owner = try #require(DataControlClipboard(environment: sway.environment))
        let holding = try await owner.take(.dictation("dictated ß 한"), timeLimit: .seconds(5))
        let readText = { try output(of: ["/usr/bin/wl-paste", "--no-newline", "--type", "text/plain"], environment: environment) }

        #expect(try types().contains("x-kde-passwordManagerHint"))
        #expect(try output(of: ["/usr/bin/wl-paste", "--no-newline", "--type", "x-kde-passwordManagerHint"], environment: environment) == "secret")
        #expect(await holding.served(within: .milliseconds(300)) == false)
        // A clipboard manager reads the new clipboard at once, before the keystroke.
        #expect(try readText() == "dictated ß 한")
        let pressing = ContinuousClock.now
        #expect(await holding.served(since: pressing, within: .milliseconds(300)) == false)

        #expect(try readText() == "dictated ß 한")
        #expect(await holding.served(since: pressing, within: .seconds(5)))
    }

    @Test func aTextLeftOnTheClipboardIsNotHiddenFromManagers() async throws {
        try await targets.clipboard().get().deliver("left for the user")

        let offered = try types()
        #expect(offered.contains("text/plain;charset=utf-8") && offered.contains("UTF8_STRING"))
        #expect(!offered.contains("x-kde-passwordManagerHint"))
        #expect(try output(of: ["/usr/bin/wl-paste", "--no-newline"], environment: environment) == "left for the user")
    }

    @Test func aReadIsBoundedInSize() async throws {
        let owner = try #require(DataControlClipboard(environment: sway.environment))
        let bytes = Array(repeating: UInt8(ascii: "x"), count: 100_000)
        _ = try await owner.take(.putBack(ClipboardContents(items: [.init(type: "text/plain", bytes: bytes)])), timeLimit: .seconds(5))

        #expect(await owner.read("text/plain", limit: 99_999, timeLimit: .seconds(2)) == nil)
        #expect(await owner.read("text/plain", limit: 100_000, timeLimit: .seconds(2)) == bytes)
        #expect(await owner.read("image/png", limit: 100_000, timeLimit: .seconds(2)) == nil)
    }
}

/// The offer's types and bytes, with no compositor.
@Suite struct ClipboardOfferTests {
    @Test func aDictationIsOfferedUnderEveryTextTypeWithTheHintLast() {
        let offer = ClipboardOffer.dictation("dictated")

        #expect(offer.types == ClipboardContents.textTypes + ["x-kde-passwordManagerHint"])
        #expect(offer.bytes(for: "UTF8_STRING") == Array("dictated".utf8))
        #expect(offer.bytes(for: "x-kde-passwordManagerHint") == Array("secret".utf8))
        #expect(offer.bytes(for: "text/html") == nil)
        #expect(offer.onePaste && offer.isContent("TEXT") && !offer.isContent("x-kde-passwordManagerHint"))
    }

    @Test func aClipboardPutBackKeepsItsOwnTypesAndBytesAndHasNoHint() {
        let contents = ClipboardContents(items: [
            .init(type: "text/html", bytes: [1]), .init(type: "text/plain", bytes: [2]), .init(type: "image/png", bytes: [3]),
        ])
        let offer = ClipboardOffer.putBack(contents)

        #expect(offer.types == ["text/html", "text/plain", "text/plain;charset=utf-8", "UTF8_STRING", "STRING", "TEXT", "image/png"])
        #expect(offer.bytes(for: "text/plain") == [2] && offer.bytes(for: "UTF8_STRING") == [2] && offer.bytes(for: "image/png") == [3])
        #expect(offer.bytes(for: "x-kde-passwordManagerHint") == nil && !offer.onePaste)
    }
}

