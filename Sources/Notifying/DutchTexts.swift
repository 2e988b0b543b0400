extension NotificationTexts {
    /// Nederlands.
    public static let dutch = NotificationTexts(
        recording: "Opname",
        paused: "Gepauzeerd",
        transcribing: "Transcriberen…",
        recordedSince: { duration, start in "\(duration) opgenomen, begonnen om \(start)" },
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
        noMicrophone: "Geen microfoon",
        noMicrophoneNextStep:
            "Controleer of PulseAudio of PipeWire draait en er een microfoon is aangesloten (pactl list short sources) en neem opnieuw op.",
        notAllowed: "Notula mag niet opnemen",
        notAllowedNextStep: "Geef toegang tot de microfoon en controleer of Notula in zijn map in ~/.local/share/notula mag schrijven.",
        noModel: { locale in "Geen spraakmodel voor \(locale)" },
        installModel: { locale in "Installeer het met: notula models install \(locale)" },
        noEngine: "De spraakherkenner ontbreekt",
        noEngineNextStep: "Installeer libvosk naast notulad (make build doet dat) en neem opnieuw op.",
        recordingFailed: "Opname mislukt",
        ready: "Klaar om op te nemen",
        record: "Opnemen",
        language: "Taal",
        notInstalled: { locale in "\(locale) (model wordt gedownload)" }
    )
}
