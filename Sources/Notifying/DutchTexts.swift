extension NotificationTexts {
    /// Nederlands.
    public static let dutch = NotificationTexts(
        recording: "Opname",
        paused: "Gepauzeerd",
        pausedForCall: "Gepauzeerd voor een gesprek",
        pausedForSleep: "Gepauzeerd: de computer ging slapen",
        pausedInputLost: "Gepauzeerd: de microfoon is weg",
        pausedDiskFull: "Gepauzeerd: de schijf is vol",
        transcribing: "Transcriberen…",
        recordingSince: { start in "Neemt op sinds \(start)" },
        recordedSince: { duration, start in "\(duration) opgenomen, begonnen om \(start)" },
        alsoHeardBy: { programs in "Ook gehoord door: \(programs)" },
        pause: "Pauzeren",
        resume: "Hervatten",
        send: "Versturen",
        discard: "Weggooien",
        hours: Unit(one: "uur", many: "uur"),
        minutes: Unit(one: "minuut", many: "minuten"),
        seconds: Unit(one: "seconde", many: "seconden"),
        downloadStarted: { locale in "Spraakmodel voor \(locale) wordt gedownload" },
        downloadCancelled: { locale in "Download van het spraakmodel voor \(locale) geannuleerd" },
        downloadFailed: { locale in "Spraakmodel voor \(locale) kon niet worden gedownload" },
        downloadAgain: { locale in "Opnieuw starten: notula models install \(locale)" },
        transcribed: "Transcriptie klaar",
        open: "Openen",
        noSpeech: "Geen spraak herkend",
        inputMoved: { source in "Opname gaat verder vanaf \(source)" },
        inputMovedBody: "De microfoon waarmee de opname begon is weg; de opname gaat door.",
        noMicrophone: "Geen microfoon",
        noMicrophoneNextStep:
            "Controleer of PulseAudio of PipeWire draait en er een microfoon is aangesloten (pactl list short sources) en neem opnieuw op.",
        notAllowed: "Notula mag niet opnemen",
        notAllowedNextStep: "Geef toegang tot de microfoon en controleer of Notula in zijn map in ~/.local/share/notula mag schrijven.",
        noModel: { locale in "Geen spraakmodel voor \(locale)" },
        installModel: { locale in "Installeer het met: notula models install \(locale)" },
        noEngine: "De spraakherkenner ontbreekt",
        noEngineNextStep: "Installeer libvosk naast notulad (make build doet dat) en neem opnieuw op.",
        diskFull: "De schijf is vol",
        diskFullNextStep: "Maak ruimte vrij en hervat dan. Versturen en Weggooien werken nog.",
        recordingFailed: "Opname mislukt",
        notDelivered: "De tekst kon niet worden getypt",
        newLinesAsSpaces: "Nieuwe regels als spaties getypt",
        newLinesInTerminal: { terminal in
            "Het venster is een terminal (\(terminal)), waar een nieuwe regel de opdracht zou uitvoeren. Zeg \"druk op enter\" voor Enter."
        },
        newLinesInUnknownWindow:
            "Notula kan hier niet zien welk programma de focus heeft, en in een terminal zou een nieuwe regel de opdracht uitvoeren. Zeg \"druk op enter\" voor Enter.",
        wantsToHear: { app in "\(app) wil je opnames horen" },
        wantsToHearBody: { app in
            "Het vraagt om het geluid van de microfoon, je woorden terwijl je spreekt, de tekst van je memo's en waar gedicteerde tekst heen gaat. Later anders beslissen: notula permissions allow|deny|revoke \(app)"
        },
        allow: "Toestaan",
        deny: "Weigeren",
        ready: "Klaar om op te nemen",
        record: "Opnemen",
        language: "Taal",
        notInstalled: { locale in "\(locale) (model wordt gedownload)" }
    )
}
