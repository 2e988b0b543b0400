import Foundation
import Library
import NotulaTestSupport
import Recording
import Testing

/// The library on a tmpfs of 512 kB that something else fills: its reserve (64 kB, an eighth) saves one more
/// write, a full disk without it is told as such, and room again brings the reserve back.
@Suite("The library's reserve on a full disk")
struct SpaceReserveTests {
    @Test func theReserveSavesAWriteOnAFullDiskAndComesBackWithRoom() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-reserve-\(UUID().uuidString)")
        let disk = try SmallFileSystem(at: folder, kilobytes: 512)
        defer {
            disk.unmount()
            try? FileManager.default.removeItem(at: folder)
        }
        let path = folder.appendingPathComponent("library.sqlite3").path
        let reserve = MemoStore.reservePath(besides: path)
        let store = try MemoStore(path: path)
        #expect(try FileManager.default.attributesOfItem(atPath: reserve)[.size] as? Int == 64 * 1024)
        try store.insert(TemporaryStore.memo(1, transcript: "dictated before the disk filled", status: .transcribing))

        let filler = folder.appendingPathComponent("filler").path
        fill(filler)
        try store.update("1") { $0.status = .done }
        #expect(!FileManager.default.fileExists(atPath: reserve), "the reserve gave its room to the write")
        #expect(try store.memo("1")?.status == .done)

        let error = #expect(throws: LibraryError.self) {
            try store.update("1") { $0.transcript = String(repeating: "a long transcript ", count: 20_000) }
        }
        #expect(error?.isDiskFull == true, "\(String(describing: error))")
        #expect(try store.memo("1")?.transcript == "dictated before the disk filled", "a failed write changes nothing")

        try FileManager.default.removeItem(atPath: filler)
        try store.update("1") { $0.title = "Room again" }
        #expect(try FileManager.default.attributesOfItem(atPath: reserve)[.size] as? Int == 64 * 1024, "the reserve is back")
    }

    /// Writes zeros to `path` until the disk refuses.
    private func fill(_ path: String) {
        let descriptor = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0, count: 4096)
        while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}
