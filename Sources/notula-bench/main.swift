import DBus
import Foundation
import Models
import Speech

// `make bench`: the memo library's search and list over 100 000 memos, round trips to notulad against the bus's own floor, what the idle service costs, and what
// transcription costs: a file decoded by ours and by Vosk's Python package, a kept memo transcribed again against the
// same package, the time from Send to text of recordings
// decoded while captured, the model's memory and its reload, and how long dictated text takes to reach a real client
// by each way of delivering it. A report, not a test: it prints figures and ratios
// from one run.
//
// NOTULA_TEST_MODEL names the Korean model's folder; NOTULA_BENCH_QUICK=1 gives a short run for working on the
// bench itself (the 10 s recording only, 2 rounds of the file, text delivered of 20 and 200 characters only);
// NOTULA_BENCH_LIBRARY_ONLY=1 runs the library part alone, NOTULA_BENCH_LIVE_ONLY=1 the live text's and audio's, NOTULA_BENCH_AGAIN_ONLY=1 a memo transcribed again, NOTULA_BENCH_ACCURATE_ONLY=1 the accurate pass (Whisper tiny.en, converted into
// .build/whisper by `scripts/install-whisper --test`), NOTULA_BENCH_ROUND_TRIPS_ONLY=1 the round trips and the idle service, NOTULA_BENCH_SHERPA_ONLY=1 sherpa-onnx's path and Silero's detector, NOTULA_BENCH_VOCABULARY_ONLY=1 the user's vocabulary (rare terms spelled right, Whisper tiny.en), NOTULA_BENCH_INVENTED_ONLY=1 the words invented over clips without speech, NOTULA_BENCH_DELIVERY_ONLY=1 the dictation delivery alone
// (it needs neither notulad nor a model), NOTULA_BENCH_FOOTPRINT_ONLY=1 the binary's size and its memory at a first start.

if ProcessInfo.processInfo.environment["NOTULA_BENCH_DELIVERY_ONLY"] == "1" {
    print(await Delivery.run(quick: ProcessInfo.processInfo.environment["NOTULA_BENCH_QUICK"] == "1"))
    exit(0)
}

guard CommandLine.arguments.count == 2, let modelPath = ProcessInfo.processInfo.environment["NOTULA_TEST_MODEL"] else {
    print(
        "Usage: NOTULA_TEST_MODEL=MODEL_FOLDER notula-bench PATH_TO_NOTULAD  (under a session bus and a PulseAudio server, "
            + "python3 with Vosk's package on PATH)")
    exit(2)
}
let notulad = CommandLine.arguments[1]
let quick = ProcessInfo.processInfo.environment["NOTULA_BENCH_QUICK"] == "1"
/// 30 s: long enough that the decoding outweighs the set-up on both sides.
let fileSeconds = 30.0
let fileRounds = quick ? 2 : 5
let recordingSeconds: [Double] = quick ? [10] : [10, 60, 300]
/// The lengths for the accurate pass: 12, 61 and 302 s of speech.
let accurateSeconds: [Double] = quick ? [12] : [12, 61, 302]
let whisperModel = FileManager.default.currentDirectoryPath + "/.build/whisper/ggml-tiny.en.bin"

/// The accurate pass's figures, or why there are none.
func accuratePass(home: URL, bus: Bus) async throws -> String {
    guard FileManager.default.fileExists(atPath: whisperModel) else {
        return "## The accurate pass\n\nSkipped: \(whisperModel) is missing (`scripts/install-whisper BIN --test` converts it)."
    }
    let models = [("Whisper tiny.en", whisperModel), ("Whisper base", HelperEngines.whisperBase)].filter { FileManager.default.fileExists(atPath: $0.1) }
    return try await AccurateLatency.run(
        lengths: accurateSeconds, notulad: notulad, home: home, bus: bus, modelPath: modelPath, models: models)
}

/// Words written where none were said, by every engine and way that has its models here.
func inventedWords(home: URL) async throws -> String {
    switch try HelperEngines.make(notulad: notulad, home: home, whisperModel: whisperModel) {
    case .success(let engines): return try await InventedWords.run(engines: engines, vosk: try voskBesideThis(), voskModel: modelPath)
    case .failure(let missing): return "## No invented words\n\n" + missing.sentence
    }
}

/// libvosk beside this executable, where `make bench` put it for notulad too.
func voskBesideThis() throws -> VoskLibrary {
    try VoskLibrary.load(
        searchingFrom: VoskLibrary.defaultCandidates(
            environment: ProcessInfo.processInfo.environment, executableDirectory: Bundle.main.executableURL!.deletingLastPathComponent().path))
}

let home = FileManager.default.temporaryDirectory.appendingPathComponent("notula-bench-\(UUID().uuidString)")
do {
    let bus = try await Bus.connect(.session)
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: home) }

    if ProcessInfo.processInfo.environment["NOTULA_BENCH_LIVE_ONLY"] == "1" {
        print(
            try await LiveTextLatency.run(
                corpus: try SpeechCorpus(in: home.appendingPathComponent("speech")), seconds: quick ? 10 : 60, notulad: notulad,
                home: home.appendingPathComponent("live-text"), bus: bus, modelPath: modelPath))
        print()
        print(
            try await LiveAudioLatency.run(
                notulad: notulad, home: home.appendingPathComponent("live-audio"), bus: bus, modelPath: modelPath))
        try? FileManager.default.removeItem(at: home)
        exit(0)
    }
    if ProcessInfo.processInfo.environment["NOTULA_BENCH_FOOTPRINT_ONLY"] == "1" {
        print(try await Footprint.run(notulad, home: home.appendingPathComponent("footprint"), bus: bus))
        try? FileManager.default.removeItem(at: home)
        exit(0)
    }
    if ProcessInfo.processInfo.environment["NOTULA_BENCH_ACCURATE_ONLY"] == "1" {
        print(try await accuratePass(home: home.appendingPathComponent("accurate"), bus: bus))
        try? FileManager.default.removeItem(at: home)
        exit(0)
    }
    if ProcessInfo.processInfo.environment["NOTULA_BENCH_SHERPA_ONLY"] == "1" {
        print(try await SherpaPath.run(
            notulad: notulad, home: home.appendingPathComponent("sherpa"), bus: bus, modelPath: modelPath, whisperModel: whisperModel))
        try? FileManager.default.removeItem(at: home)
        exit(0)
    }
    if ProcessInfo.processInfo.environment["NOTULA_BENCH_INVENTED_ONLY"] == "1" {
        print(try await inventedWords(home: home.appendingPathComponent("invented")))
        try? FileManager.default.removeItem(at: home)
        exit(0)
    }
    if ProcessInfo.processInfo.environment["NOTULA_BENCH_VOCABULARY_ONLY"] == "1" {
        print(
            try await VocabularyAccuracy.run(notulad: notulad, home: home.appendingPathComponent("vocabulary"), whisperModel: whisperModel))
        try? FileManager.default.removeItem(at: home)
        exit(0)
    }
    if ProcessInfo.processInfo.environment["NOTULA_BENCH_AGAIN_ONLY"] == "1" {
        print(
            try await TranscribeAgain.run(
                speech: try SpeechCorpus(in: home.appendingPathComponent("speech")).speech(lasting: fileSeconds), rounds: quick ? 2 : 3,
                notulad: notulad, home: home.appendingPathComponent("again"), bus: bus, modelPath: modelPath))
        try? FileManager.default.removeItem(at: home)
        exit(0)
    }
    if ProcessInfo.processInfo.environment["NOTULA_BENCH_ROUND_TRIPS_ONLY"] == "1" {
        print(try await RoundTrips.run(notulad, home: home.appendingPathComponent("round-trips"), bus: bus))
        try? FileManager.default.removeItem(at: home)
        exit(0)
    }
    progress("filling a library of \(LibrarySearch.memoCount) memos, then searching it")
    let libraryHome = home.appendingPathComponent("library")
    let (libraryReport, queries) = try LibrarySearch.run(home: libraryHome)
    print(libraryReport)
    print()
    progress("the same library served by notulad")
    print(
        try await LibraryOverBus.run(
            notulad, home: libraryHome, emptyHome: home.appendingPathComponent("no-library"), queries: queries, bus: bus))
    print()
    if ProcessInfo.processInfo.environment["NOTULA_BENCH_LIBRARY_ONLY"] == "1" {
        try? FileManager.default.removeItem(at: home)
        exit(0)
    }

    progress("round trips and the idle service")
    print(try await RoundTrips.run(notulad, home: home.appendingPathComponent("round-trips"), bus: bus))
    print()
    progress("the binary's size and its memory at a first start")
    print(try await Footprint.run(notulad, home: home.appendingPathComponent("footprint"), bus: bus))

    progress("speaking the test audio")
    let corpus = try SpeechCorpus(in: home.appendingPathComponent("speech"))
    let library = try voskBesideThis()

    progress("decoding a file, ours and the reference, \(fileRounds) rounds")
    print()
    print(
        try FileTranscription.run(
            try corpus.speech(lasting: fileSeconds), rounds: fileRounds, library: library, modelPath: modelPath))

    print()
    print(
        try await TranscribeAgain.run(
            speech: try corpus.speech(lasting: fileSeconds), rounds: quick ? 2 : 3, notulad: notulad,
            home: home.appendingPathComponent("again"), bus: bus, modelPath: modelPath))

    print()
    print(
        try await StreamedLatency.run(
            lengths: recordingSeconds, corpus: corpus, notulad: notulad, home: home.appendingPathComponent("streamed"), bus: bus,
            library: library, modelPath: modelPath))

    print()
    print(try await accuratePass(home: home.appendingPathComponent("accurate"), bus: bus))
    print()
    print(try await SherpaPath.run(
            notulad: notulad, home: home.appendingPathComponent("sherpa"), bus: bus, modelPath: modelPath, whisperModel: whisperModel))
    print()
    print(try await VocabularyAccuracy.run(notulad: notulad, home: home.appendingPathComponent("vocabulary"), whisperModel: whisperModel))
    print()
    print(try await inventedWords(home: home.appendingPathComponent("invented")))

    print()
    print(
        try await LiveTextLatency.run(
            corpus: corpus, seconds: quick ? 10 : 60, notulad: notulad, home: home.appendingPathComponent("live-text"), bus: bus,
            modelPath: modelPath))

    print()
    print(try await LiveAudioLatency.run(notulad: notulad, home: home.appendingPathComponent("live-audio"), bus: bus, modelPath: modelPath))

    progress("memory and reload")
    print()
    print(
        try await ModelMemory.run(
            speech: try corpus.speech(lasting: 10), notulad: notulad, home: home.appendingPathComponent("memory"), bus: bus,
            modelPath: modelPath))

    // Last: the GNOME Shell it starts stays until the bench exits.
    progress("dictation delivery")
    print()
    print(await Delivery.run(quick: quick))
} catch {
    // The notulad and the sink of the part that failed are gone with it; the folder went with the `defer`.
    progress("failed: \(error)")
    exit(1)
}
