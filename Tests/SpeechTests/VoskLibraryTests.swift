import Foundation
import Glibc
import NotulaTestSupport
import Recording
import TestPasses
import Testing

@testable import Speech

@Suite(.tags(.speech)) struct VoskLibraryTests {
    @Test func theEnvironmentVariableComesFirstThenBesideTheExecutableThenTheInstalledPlace() {
        let candidates = VoskLibrary.defaultCandidates(
            environment: ["NOTULA_VOSK_LIBRARY": "/opt/vosk/libvosk.so", "HOME": "/root"],
            executableDirectory: "/usr/bin")

        #expect(candidates == ["/opt/vosk/libvosk.so", "/usr/bin/libvosk.so", "/usr/bin/../lib/notula/libvosk.so"])
    }

    @Test func withoutTheVariableTheExecutablesFolderComesFirst() {
        let candidates = VoskLibrary.defaultCandidates(environment: [:], executableDirectory: "/work/.build/debug/")

        #expect(candidates == ["/work/.build/debug/libvosk.so", "/work/.build/debug/../lib/notula/libvosk.so"])
    }

    @Test func theFirstPresentCandidateIsNamedWithItsLinksResolved() throws {
        let folder = TemporaryFolder()
        let library = folder.file("libvosk.so")
        try "a library".write(toFile: library, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder.file("bin"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.so"), withDestinationPath: library)
        let real = URL(fileURLWithPath: library).resolvingSymlinksInPath().path

        #expect(VoskLibrary.firstPresent(in: [folder.file("absent.so"), folder.file("bin") + "/../link.so", library]) == real)
        #expect(VoskLibrary.firstPresent(in: [folder.file("absent.so")]) == nil)
    }

    @Test(.enabled(if: !dynamicLoaderFindsLibvosk, "a libvosk.so on the loader's path would be found"))
    func aMissingLibraryIsUnavailableNamingWhereItLooked() throws {
        let folder = TemporaryFolder()
        let notALibrary = folder.file("libvosk.so")
        try "not an ELF file".write(toFile: notALibrary, atomically: true, encoding: .utf8)
        let candidates = ["/nonexistent/a/libvosk.so", notALibrary]

        let error = try #require(throws: SpeechError.self) { try VoskLibrary.load(searchingFrom: candidates) }

        guard case .engineUnavailable(let message) = error else {
            Issue.record("expected engineUnavailable, got \(error)")
            return
        }
        #expect(message.hasPrefix("libvosk was not found (looked in: /nonexistent/a/libvosk.so, \(notALibrary) ("))
        #expect(message.contains("the dynamic loader's search path"))
        #expect(
            message.hasSuffix(
                "Install it with `pip install vosk` and run `make`, or point NOTULA_VOSK_LIBRARY at libvosk.so."))
    }

    @Test func aLibraryThatIsNotVoskIsUnavailableNamingTheMissingFunction() {
        #expect(
            throws: SpeechError.engineUnavailable(
                "libm.so.6 lacks the function vosk_model_new: it is not libvosk 0.3.45 or newer. Reinstall it with `pip install vosk` and run `make`."
            )
        ) {
            try VoskLibrary.load(searchingFrom: ["libm.so.6"])
        }
    }

    @Test func theFirstCandidateThatLoadsIsUsed() throws {
        let library = try VoskLibrary.load(searchingFrom: ["/nonexistent/libvosk.so", Engine.libraryPath, "/also/missing"])

        #expect(library.path == Engine.libraryPath)
    }

    @Test func utterancesJoinWithSingleSpacesSkippingEmptyOnes() {
        var transcript = Transcript()
        let hello = Word(start: 0.3, end: 0.6, word: "안녕", confidence: 1)
        let there = Word(start: 2.1, end: 2.4, word: "하세요", confidence: 0.5)

        transcript.append(Transcript(text: "", words: []))
        transcript.append(Transcript(text: "안녕", words: [hello]))
        transcript.append(Transcript(text: "", words: []))
        transcript.append(Transcript(text: "하세요", words: [there]))

        #expect(transcript == Transcript(text: "안녕 하세요", words: [hello, there]))
    }

    @Test func resultJSONIsReadAsLibvoskWritesIt() throws {
        let json = """
            {
              "result" : [{
                  "conf" : 0.874512,
                  "end" : 1.110000,
                  "start" : 0.870000,
                  "word" : "what"
                }],
              "text" : "what"
            }
            """

        #expect(
            try RecognizerResult.transcript(from: json)
                == Transcript(text: "what", words: [Word(start: 0.87, end: 1.11, word: "what", confidence: 0.874512)]))
        #expect(try RecognizerResult.transcript(from: #"{"text" : ""}"#) == Transcript())
    }
}

private let dynamicLoaderFindsLibvosk: Bool = {
    guard let handle = dlopen("libvosk.so", RTLD_NOW | RTLD_LOCAL) else { return false }
    dlclose(handle)
    return true
}()
