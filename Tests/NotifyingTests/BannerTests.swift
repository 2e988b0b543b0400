import Notifying
import Recording
import Testing

@Suite("Banners")
struct BannerTests {
    @Test func downloadsAreInfoWarningAndError() async {
        let server = NotificationServerDouble()
        let (notifier, _) = await startedNotifier(server)
        await notifier.downloadChanged(.started(locale: "nl-NL", name: "vosk-model-small-nl-0.22", bytes: 38_900_000))
        await notifier.downloadChanged(.cancelled(locale: "nl-NL"))
        await notifier.downloadChanged(.failed(locale: "nl-NL", reason: "The server closed the connection."))
        await notifier.settle()
        let posts = await server.notified.map(\.0)
        #expect(
            posts.map(\.summary) == [
                "Downloading the speech model for nl-NL", "Download of the speech model for nl-NL cancelled",
                "Could not download the speech model for nl-NL",
            ])
        #expect(
            posts.map(\.body) == [
                "vosk-model-small-nl-0.22, 39 MB", "Start it again with: notula models install nl-NL",
                "The server closed the connection.\nStart it again with: notula models install nl-NL",
            ])
        #expect(posts.map(\.icon) == ["dialog-information", "dialog-warning", "dialog-error"])
        #expect(posts.map(\.hints.urgency) == [.low, .normal, .critical])
        #expect(posts.allSatisfy { $0.hints.transient && $0.expireTimeout > 0 && $0.actions.isEmpty })
        #expect(await server.notified.allSatisfy { $0.replacing == 0 })
    }

    @Test func theResultShowsTheTextEscapedForMarkupAndOpensTheMemo() async {
        let server = NotificationServerDouble()
        let (notifier, sent) = await startedNotifier(server)
        await notifier.transcribed(RecordingID("42"), text: "<b>fish & chips</b>")
        await notifier.transcribed(RecordingID("43"), text: "")
        await notifier.settle()
        let posts = await server.notified.map(\.0)
        #expect(posts.map(\.summary) == ["Transcription ready", "Transcription ready"])
        #expect(posts.map(\.body) == ["&lt;b&gt;fish &amp; chips&lt;/b&gt;", "No speech recognized"])
        #expect(posts.first?.actions == [NotificationAction("default", "Open")])
        #expect(posts.first?.hints.transient == false)
        await notifier.handle(.actionInvoked(id: 1, key: "default"))
        await notifier.handle(.actionInvoked(id: 2, key: "toggle"))
        await notifier.handle(.actionInvoked(id: 9, key: "default"))
        #expect(sent.actions == ["open 42"])
    }

    @Test func withoutMarkupTheTextIsSentAsItIs() async {
        let server = NotificationServerDouble(capabilities: ["body"])
        let (notifier, sent) = await startedNotifier(server)
        await notifier.transcribed(RecordingID("42"), text: "<b>fish & chips</b>")
        await notifier.settle()
        #expect(await server.notified.map(\.0.body) == ["<b>fish & chips</b>"])
        #expect(await server.notified.first?.0.actions == [])
        await notifier.handle(.actionInvoked(id: 1, key: "default"))
        #expect(sent.actions.isEmpty)
    }

    @Test func failuresSayWhatToDoNext() async {
        let server = NotificationServerDouble()
        let (notifier, _) = await startedNotifier(server)
        let failures: [RecordingError] = [
            .deviceUnavailable("No such source: usb_mic"), .permissionDenied("Cannot write recordings"),
            .modelUnavailable("No speech model for nl-NL on this machine."), .engineUnavailable("libvosk.so not found"),
            .failed("Disk full"), .invalidState(current: .idle, action: .pause),
        ]
        for failure in failures { await notifier.failed(failure, locale: "nl-NL") }
        await notifier.settle()
        let posts = await server.notified.map(\.0)
        #expect(posts.count == 5, "a refused action was answered to its caller already")
        #expect(
            posts.map(\.summary) == [
                "No microphone", "Notula may not record", "No speech model for nl-NL", "The speech engine is missing", "Recording failed",
            ])
        #expect(posts[0].body.hasPrefix("No such source: usb_mic\nCheck that PulseAudio"))
        #expect(posts[2].body == "No speech model for nl-NL on this machine.\nInstall it with: notula models install nl-NL")
        #expect(posts[4].body == "Disk full")
        #expect(posts.allSatisfy { $0.icon == "dialog-error" && $0.hints.urgency == .critical })
    }
}

@Suite("Texts")
struct TextTests {
    @Test func durationsAreSpelledForReading() {
        let english = NotificationTexts.english
        let dutch = NotificationTexts.dutch
        #expect(english.spelled(.seconds(134)) == "2 minutes 14 seconds")
        #expect(english.spelled(.seconds(61)) == "1 minute 1 second")
        #expect(english.spelled(.seconds(3600)) == "1 hour")
        #expect(english.spelled(.milliseconds(999)) == "0 seconds")
        #expect(dutch.spelled(.seconds(134)) == "2 minuten 14 seconden")
        #expect(dutch.spelled(.seconds(7261)) == "2 uur 1 minuut 1 seconde")
    }

    @Test func theLanguageComesFromTheEnvironmentAsGettextReadsIt() {
        func language(_ environment: [String: String]) -> String { NotificationTexts.forEnvironment(environment).spelled(.seconds(2)) }
        #expect(language([:]) == "2 seconds")
        #expect(language(["LANG": "nl_NL.UTF-8"]) == "2 seconden")
        #expect(language(["LANG": "nl_BE.UTF-8", "LC_MESSAGES": "en_GB.UTF-8"]) == "2 seconds")
        #expect(language(["LANG": "en_US.UTF-8", "LANGUAGE": "fy:nl:en"]) == "2 seconden")
        #expect(language(["LANG": "de_DE.UTF-8"]) == "2 seconds")
        #expect(language(["LANG": "C.UTF-8", "LC_ALL": "nl_NL.UTF-8"]) == "2 seconden")
    }

    @Test func theDutchLiveNotification() async {
        let server = NotificationServerDouble()
        let (notifier, _) = await startedNotifier(server, texts: .dutch)
        await notifier.report(snapshot(.paused, seconds: 75))
        let live = await server.notified.first?.0
        #expect(live?.summary == "Gepauzeerd")
        #expect(live?.body == "1 minuut 15 seconden opgenomen, begonnen om 14:03")
        #expect(live?.actions.map(\.label) == ["Hervatten", "Versturen", "Weggooien"])
        await notifier.report(snapshot(.recording, seconds: 75))
        #expect(await server.notified.last?.0.body == "Neemt op sinds 14:03")
    }

    @Test func theSummaryIsEscapedForMarkupAsTheBodyIs() async {
        for (capabilities, summary) in [
            (["body", "body-markup"], "Recording from &lt;b&gt;mic &amp; co&lt;/b&gt; now"),
            (["body"], "Recording from <b>mic & co</b> now"),
        ] {
            let server = NotificationServerDouble(capabilities: Set(capabilities))
            let (notifier, _) = await startedNotifier(server)
            await notifier.inputMoved(to: "<b>mic & co</b>")
            await notifier.settle()
            #expect(await server.notified.map(\.0.summary) == [summary])
        }
    }

    @Test func newLinesTypedAsSpacesSayWhyAndHowToPressReturnInEachLanguage() async {
        for (texts, summary, terminal, unknown) in [
            (
                NotificationTexts.english, "New lines typed as spaces",
                "The window is a terminal (foot), where a new line would run the command. Say \"press enter\" for Return.",
                "Notula cannot tell which program has the focus here"
            ),
            (
                .dutch, "Nieuwe regels als spaties getypt",
                "Het venster is een terminal (foot), waar een nieuwe regel de opdracht zou uitvoeren. Zeg \"druk op enter\" voor Enter.",
                "Notula kan hier niet zien welk programma de focus heeft"
            ),
        ] {
            let server = NotificationServerDouble(capabilities: ["body"])
            let (notifier, _) = await startedNotifier(server, texts: texts)
            await notifier.newLinesAsSpaces(RecordingID("42"), terminal: "foot")
            await notifier.newLinesAsSpaces(RecordingID("43"), terminal: nil)
            await notifier.settle()
            let posts = await server.notified.map(\.0)
            #expect(posts.map(\.summary) == [summary, summary])
            #expect(posts.first?.body == terminal)
            #expect(posts.last?.body.hasPrefix(unknown) == true, "\(String(describing: posts.last?.body))")
            #expect(posts.map(\.icon) == ["dialog-information", "dialog-information"])
        }
    }
}
