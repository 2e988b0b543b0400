import DBus
import Foundation
import NotulaContract
import NotulaTestSupport
import Testing

/// The Korean model under an English model's name: Vosk only tells where each utterance ends, its words are
/// Korean guesses at English, and every word of the memo that is right is Whisper's.
func englishModelPlace() throws -> URL {
    let model = try #require(ProcessInfo.processInfo.environment["NOTULA_TEST_MODEL"], "NOTULA_TEST_MODEL names the Korean model")
    let place = FileManager.default.temporaryDirectory.appendingPathComponent("notula-models-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: place, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
        at: place.appendingPathComponent("vosk-model-small-en-us-0.15"), withDestinationURL: URL(fileURLWithPath: model))
    try FileManager.default.createSymbolicLink(
        at: place.appendingPathComponent("ggml-tiny.en.bin"),
        withDestinationURL: packageRoot.appendingPathComponent(".build/whisper/ggml-tiny.en.bin"))
    return place
}

/// Says `sentences` into a recording, a pause after each, sends it, and returns its memo once processed, with the
/// live text read meanwhile.
func recordAndSend(_ sentences: [String], to service: ServiceUnderTest) async throws -> (ObjectPath, [LiveTextLine]) {
    let spoken = try sentences.map { try speech($0, voice: "en-us") }
    let reader = try await LiveTextReader.watching(service)
    defer { close(reader.descriptor) }
    let signals = try await service.recorderSignals()
    try await service.recorder(.start)
    for file in spoken { try await service.sink?.play(file) }
    let memo = try await service.recorder(.process).argument(0, as: ObjectPath.self)
    for await signal in signals where signal.isSignal(.processed) || signal.isSignal(.failed) { break }
    return (memo, await reader.linesUntilEnd())
}

/// Returns once Whisper has written every utterance of `memo`: its `PendingUtterances` empty, at once or later.
func awaitAccurateText(of memo: ObjectPath, in service: ServiceUnderTest) async throws {
    let changes = try await service.signals(of: memo, interface: NotulaBus.memoInterface)
    guard !(try [UInt32](dbusValue: try await service.property(.pendingUtterances, of: memo))).isEmpty else { return }
    for await message in changes {
        let now = try? message.argument(1, as: [String: Variant].self)["PendingUtterances"].map { try [UInt32](dbusValue: $0.value) }
        if now?.isEmpty == true { return }
    }
}
