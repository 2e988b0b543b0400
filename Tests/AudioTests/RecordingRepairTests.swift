import Foundation
import NotulaTestSupport
import Recording
import Testing

@testable import Audio

@Suite("Repairing a recording whose writer died")
struct RecordingRepairTests {
    @Test("The header is rewritten for the whole samples on disk; a trailing half sample is dropped")
    func rewritesHeader() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notula-repair-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // A header still claiming no data, then 1.5 s of samples and one odd byte.
        let samples = [UInt8](repeating: 7, count: RecordingFormat.bytesPerSecond * 3 / 2)
        try Data(WAVHeader.bytes(dataSize: 0) + samples + [1]).write(to: URL(fileURLWithPath: path))
        #expect(try RecordingRepair.repair(path) == 1.5)
        let wav = try WAVReader(path: path)
        #expect(wav.declaredDataBytes == samples.count)
        #expect(wav.fileSize == WAVHeader.size + samples.count)
        #expect(wav.riffSize == wav.fileSize - 8)
    }

    @Test("A file cut inside its header becomes an empty recording")
    func truncatedHeader() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notula-repair-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(Array(WAVHeader.bytes(dataSize: 0).prefix(10))).write(to: URL(fileURLWithPath: path))
        #expect(try RecordingRepair.repair(path) == 0)
        #expect(try WAVReader(path: path).declaredDataBytes == 0)
    }

    @Test("A file whose header is not the one Notula writes is left as it is, and says so")
    func garbageHeader() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("notula-repair-\(UUID().uuidString).wav").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let garbage = Data((0..<4000).map { UInt8(truncatingIfNeeded: $0 &* 7919) })
        try garbage.write(to: URL(fileURLWithPath: path))
        #expect {
            try RecordingRepair.repair(path)
        } throws: {
            ($0 as? RepairError).map { "\($0.reason)" } == "its audio file \(path) is not a recording Notula wrote"
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
    }

    @Test("A file that is gone says so")
    func missingFile() {
        let path = "/nonexistent/notula-\(UUID().uuidString).wav"
        #expect {
            try RecordingRepair.repair(path)
        } throws: {
            ($0 as? RepairError)?.reason == "its audio file \(path) is gone"
        }
    }
}
