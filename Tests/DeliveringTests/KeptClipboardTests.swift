import Foundation
import NotulaTestSupport
import Testing

@testable import Delivering

/// The file that keeps the user's clipboard during a one-time paste: private, whole, and recognising Notula's offer
/// without holding its text.
@Suite struct KeptClipboardTests {
    private let runtime = TemporaryFolder()
    private let contents = ClipboardContents(items: [
        .init(type: "text/html", bytes: Array("<b>copied</b>\n".utf8)),
        .init(type: "text/plain;charset=utf-8", bytes: Array("copied 한\n\n".utf8)),
        .init(type: "image/png", bytes: [0x89, 0x50, 0x00, 0x0a, 0xff]),
        .init(type: "application/x-empty", bytes: []),
    ])

    @Test func whatIsKeptIsReadBackWholeFromAPrivateFileWithoutTheOfferedText() throws {
        let file = try #require(KeptClipboard(runtimeFolder: runtime.path))

        let kept = try file.keep(contents, offering: "the dictated note")

        #expect(file.read() == kept)
        #expect(kept.contents == contents)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
        #expect(try FileManager.default.attributesOfItem(atPath: runtime.file("notula"))[.posixPermissions] as? Int == 0o700)
        #expect(!(try String(decoding: Data(contentsOf: URL(fileURLWithPath: file.path)), as: UTF8.self)).contains("dictated"))
        #expect(kept.offer.marks(Array("the dictated note".utf8)))
        #expect(!kept.offer.marks(Array("the dictated note ".utf8)))
        file.remove()
        #expect(file.read() == nil)
    }

    @Test func aFileNotulaDidNotWriteWholeIsNotRead() throws {
        let file = try #require(KeptClipboard(runtimeFolder: runtime.path))
        let whole = KeptClipboard.encoded(try file.keep(contents, offering: "x"))

        for damaged in [Array(whole.dropLast()), Array(whole.dropLast(3)), [UInt8](), Array("notula-clipboard 2\n".utf8) + whole.dropFirst(19)] {
            #expect(KeptClipboard.decoded(damaged) == nil)
        }
        // A byte more inside the image: its length no longer ends at a line's end.
        var longer = whole
        longer.insert(0x41, at: try #require(whole.firstIndex(of: 0x89)) + 1)
        #expect(KeptClipboard.decoded(longer) == nil)
    }

    @Test func withoutARuntimeFolderThereIsNoFile() {
        #expect(KeptClipboard(runtimeFolder: nil) == nil)
        #expect(KeptClipboard(runtimeFolder: "relative/run") == nil)
    }

    @Test func theTextPutBackIsTheBestTextTypeAndOtherwiseTheFirstType() {
        #expect(contents.firstToPutBack == .init(type: "text/plain;charset=utf-8", bytes: Array("copied 한\n\n".utf8)))
        let image = ClipboardContents(items: [.init(type: "image/png", bytes: [1]), .init(type: "image/bmp", bytes: [2])])
        #expect(image.firstToPutBack == .init(type: "image/png", bytes: [1]))
        #expect(ClipboardContents(items: []).firstToPutBack == nil)
        #expect(!ClipboardContents.isContent("TARGETS") && !ClipboardContents.isContent("text/plain\nx"))
        #expect(ClipboardContents.isContent("UTF8_STRING"))
    }
}
