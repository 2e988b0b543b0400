/// How long a program typing key by key may take before it counts as hung: a start-up allowance and a pause per
/// character (wtype takes about 5 ms a key in a headless sway, xdotool 7 to 12 ms, more where it remaps a key for a
/// character outside the layout), so that a long transcript is not cut off while it is still arriving.
enum TypingTime {
    static let perCharacter = Duration.milliseconds(25)

    static func limit(for text: String, startingWithin startUp: Duration) -> Duration {
        startUp + perCharacter * text.unicodeScalars.count
    }
}
