import Testing

@testable import Audio

@Suite struct WAVHeaderTests {
    @Test func encodesA16kHzMono16BitPCMHeader() {
        let header = WAVHeader.bytes(dataSize: 32_000)

        #expect(header.count == 44)
        #expect(Array(header[0..<4]) == Array("RIFF".utf8))
        #expect(Array(header[4..<8]) == [0x24, 0x7D, 0x00, 0x00])  // 36 + 32000
        #expect(Array(header[8..<12]) == Array("WAVE".utf8))
        #expect(Array(header[12..<16]) == Array("fmt ".utf8))
        #expect(Array(header[16..<20]) == [16, 0, 0, 0])  // fmt chunk size
        #expect(Array(header[20..<22]) == [1, 0])  // PCM
        #expect(Array(header[22..<24]) == [1, 0])  // mono
        #expect(Array(header[24..<28]) == [0x80, 0x3E, 0x00, 0x00])  // 16000 Hz
        #expect(Array(header[28..<32]) == [0x00, 0x7D, 0x00, 0x00])  // 32000 bytes/s
        #expect(Array(header[32..<34]) == [2, 0])  // block align
        #expect(Array(header[34..<36]) == [16, 0])  // bits per sample
        #expect(Array(header[36..<40]) == Array("data".utf8))
        #expect(Array(header[40..<44]) == [0x00, 0x7D, 0x00, 0x00])  // 32000
    }

    /// The length limit's default: the most data whose RIFF size (data + 36) still fits 32 bits, 37 h 16 min.
    @Test func theLargestFileDeclaresItsSizesExactly() {
        let header = WAVHeader.bytes(dataSize: WAVHeader.largestDataSize)

        #expect(WAVHeader.largestDataSize == 4_294_967_259)
        #expect(Array(header[4..<8]) == [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(Array(header[40..<44]) == [0xDB, 0xFF, 0xFF, 0xFF])
        #expect(Int(WAVHeader.largestDataSize) / RecordingFormat.bytesPerSecond / 60 == 37 * 60 + 16)
    }

    @Test func sizeFieldsSitWhereTheyArePatched() {
        let header = WAVHeader.bytes(dataSize: 0x0102_0304)

        #expect(Array(header[WAVHeader.riffSizeOffset..<WAVHeader.riffSizeOffset + 4]) == [0x28, 0x03, 0x02, 0x01])
        #expect(Array(header[WAVHeader.dataSizeOffset..<WAVHeader.dataSizeOffset + 4]) == [0x04, 0x03, 0x02, 0x01])
    }

    @Test func sizesSaturateInsteadOfWrappingPast4GiB() {
        #expect(WAVHeader.dataFieldSize(dataSize: 1 << 33) == UInt32.max)
        #expect(WAVHeader.riffSize(dataSize: UInt64(UInt32.max) - 10) == UInt32.max)
    }
}

@Suite struct LevelMeterTests {
    @Test func readsSilenceAsMinus160() {
        var meter = LevelMeter()
        let zeros = [Int16](repeating: 0, count: 1600)
        zeros.withUnsafeBytes { meter.add($0) }
        #expect(meter.dBFS == LevelMeter.silence)
    }

    @Test func readsAFullScaleSquareWaveAsAbout0dBFS() {
        var meter = LevelMeter()
        let square = (0..<1600).map { $0 % 2 == 0 ? Int16.max : Int16.min + 1 }
        square.withUnsafeBytes { meter.add($0) }
        #expect(abs(meter.dBFS) < 0.01)
    }

    @Test func forgetsSamplesOlderThan100ms() {
        var meter = LevelMeter()
        let loud = [Int16](repeating: 10_000, count: 1600)
        let quiet = [Int16](repeating: 0, count: 1600)
        loud.withUnsafeBytes { meter.add($0) }
        quiet.withUnsafeBytes { meter.add($0) }
        #expect(meter.dBFS == LevelMeter.silence)
    }
}
