import Recording

/// Where `OpenAudio("vad")` finds the stretches of speech in a recording's samples: by the level
/// (`VoiceStretches`), or by Silero's detector (`SileroStretches`).
protocol VoiceStretching: Sendable {
    /// Takes the next samples (signed 16-bit little-endian) and returns the stretches they end.
    mutating func stretches(in samples: UnsafeRawBufferPointer) -> [VoiceFrame]
    /// Advances past `count` samples nobody hears: a stretch under way ends unsent.
    mutating func skip(_ count: Int)
    /// The recording ended: the stretches still under way. The next samples are another recording's.
    mutating func ended() -> [VoiceFrame]
    /// The recording was discarded: the frame that says so. The next samples are another recording's.
    mutating func dropped() -> VoiceFrame
}

extension VoiceStretches: VoiceStretching {
    mutating func stretches(in samples: UnsafeRawBufferPointer) -> [VoiceFrame] { take(samples) }
    mutating func ended() -> [VoiceFrame] { finish().map { [$0] } ?? [] }
    mutating func dropped() -> VoiceFrame { drop() }
}
