extension NotificationTexts {
    /// English: the source language.
    public static let english = NotificationTexts(
        recording: "Recording",
        paused: "Paused",
        transcribing: "Transcribing…",
        recordedSince: { duration, start in "\(duration) recorded, started at \(start)" },
        pause: "Pause",
        resume: "Resume",
        send: "Send",
        discard: "Discard",
        hours: Unit(one: "hour", many: "hours"),
        minutes: Unit(one: "minute", many: "minutes"),
        seconds: Unit(one: "second", many: "seconds"),
        downloadStarted: { locale in "Downloading the speech model for \(locale)" },
        downloadCancelled: { locale in "Download of the speech model for \(locale) cancelled" },
        downloadFailed: { locale in "Could not download the speech model for \(locale)" },
        downloadAgain: { locale in "Start it again with: notula models install \(locale)" },
        transcribed: "Transcription ready",
        open: "Open",
        noSpeech: "No speech recognized",
        noMicrophone: "No microphone",
        noMicrophoneNextStep:
            "Check that PulseAudio or PipeWire is running and a microphone is connected (pactl list short sources), then record again.",
        notAllowed: "Notula may not record",
        notAllowedNextStep: "Allow access to the microphone, and check that Notula may write to its folder in ~/.local/share/notula.",
        noModel: { locale in "No speech model for \(locale)" },
        installModel: { locale in "Install it with: notula models install \(locale)" },
        noEngine: "The speech engine is missing",
        noEngineNextStep: "Install libvosk next to notulad (make build does), then record again.",
        recordingFailed: "Recording failed",
        ready: "Ready to record",
        record: "Record",
        language: "Language",
        notInstalled: { locale in "\(locale) (downloads its model)" }
    )
}
