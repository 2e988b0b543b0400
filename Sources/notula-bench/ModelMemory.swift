import DBus
import Foundation
import NotulaTestSupport

/// What the model costs notulad in memory, that it gives it back when idle, and what reloading it at the next
/// recording costs that recording's Send.
enum ModelMemory {
    /// The idle time after which the model is released, shortened from the default 600 s.
    static let idleSeconds = 3

    /// Runs a notulad of its own with a short idle time, and records `speech` right after the release.
    static func run(speech: AudioFile, notulad: String, home: URL, bus: Bus, modelPath: String) async throws -> String {
        let sink = try await NullSink()
        let service = try await LaunchedService.startTranscribingKorean(
            notulad, home: home, bus: bus, modelPath: modelPath, sink: sink, settings: #"{"modelIdleSeconds": \#(idleSeconds)}"#)
        try await Task.sleep(for: .seconds(1))  // past its start-up's allocations
        let idle = residentKilobytes(service.pid)
        try await service.pickLocaleAndWaitForModel("ko-KR")
        let loaded = residentKilobytes(service.pid)
        try await service.waitForLog("Released the ko-KR speech model")
        let released = residentKilobytes(service.pid)
        progress("recording \(fixed(speech.seconds, 1)) s of speech while the model reloads")
        let sent = try await service.dictate(speech, through: sink)
        let text = try await service.text(of: sent.path)
        let loadTimes = loadDurations(in: service.log)
        try await service.stop()

        return """
            ## Memory and reload

            A notulad of its own with settings.json {"modelIdleSeconds": \(idleSeconds)}: its RSS (VmRSS) before any \
            model is loaded, once setting Locale to ko-KR has loaded the model, and once the model is released after \
            \(idleSeconds) s unused; then a recording started right after the release, so that the model reloads while \
            its audio waits, then is caught up. One round.

            | notulad | value |
            |---|---|
            | RSS idle, no model loaded | \(megabytesText(kilobytes: idle)) |
            | RSS with the ko-KR model loaded (load took \(loadTimes.first ?? "?")) | \(megabytesText(kilobytes: loaded)) |
            | RSS after the idle release | \(megabytesText(kilobytes: released)) |
            | Send → text of a \(fixed(speech.seconds, 1)) s recording started right after the release (reload took \(loadTimes.dropFirst().first ?? "?")) | **\(secondsText(sent.latency))** |
            | its text | \(text.isEmpty ? "**empty**" : "\(text.split(separator: " ").count) words"), \(sent.streamed ? "decoded while captured" : "**decoded from its file at Send**") |
            """
    }

    /// How long each model load took, from the lines "Loaded the ko-KR speech model from … in 1.234 seconds".
    private static func loadDurations(in log: String) -> [String] {
        log.split(separator: "\n").filter { $0.contains("Loaded the ko-KR speech model") }.compactMap { line in
            guard let seconds = line.split(separator: " ").dropLast().last.flatMap({ Double($0) }) else { return nil }
            return fixed(seconds, 2) + " s"
        }
    }
}
