extension NotificationTexts {
    /// English: the source language.
    public static let english = NotificationTexts(
        recording: "Recording",
        paused: "Paused",
        pausedForCall: "Paused for a call",
        pausedForSleep: "Paused: the computer went to sleep",
        pausedInputLost: "Paused: the microphone went away",
        pausedDiskFull: "Paused: the disk is full",
        transcribing: "Transcribing…",
        recordingSince: { start in "Recording since \(start)" },
        recordedSince: { duration, start in "\(duration) recorded, started at \(start)" },
        alsoHeardBy: { programs in "Also heard by: \(programs)" },
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
        inputMoved: { source in "Recording from \(source) now" },
        inputMovedBody: "The microphone the recording started with went away; the recording goes on.",
        noMicrophone: "No microphone",
        noMicrophoneNextStep:
            "Check that PulseAudio or PipeWire is running and a microphone is connected (pactl list short sources), then record again.",
        notAllowed: "Notula may not record",
        notAllowedNextStep: "Allow access to the microphone, and check that Notula may write to its folder in ~/.local/share/notula.",
        noModel: { locale in "No speech model for \(locale)" },
        installModel: { locale in "Install it with: notula models install \(locale)" },
        noEngine: "The speech engine is missing",
        noEngineNextStep: "Install libvosk next to notulad (make build does), then record again.",
        diskFull: "The disk is full",
        diskFullNextStep: "Free some space, then Resume. Send and Discard still work.",
        recordingFailed: "Recording failed",
        notDelivered: "The text could not be typed",
        newLinesAsSpaces: "New lines typed as spaces",
        newLinesInTerminal: { terminal in
            "The window is a terminal (\(terminal)), where a new line would run the command. Say \"press enter\" for Return."
        },
        newLinesInUnknownWindow:
            "Notula cannot tell which program has the focus here, and in a terminal a new line would run the command. Say \"press enter\" for Return.",
        wantsToHear: { app in "\(app) wants to hear your recordings" },
        wantsToHearBody: { app in
            "It asks for the microphone's audio, your words as you speak, your memos' text and where dictated text goes. Change your answer later with: notula permissions allow|deny|revoke \(app)"
        },
        allow: "Allow",
        deny: "Deny",
        ready: "Ready to record",
        record: "Record",
        language: "Language",
        notInstalled: { locale in "\(locale) (downloads its model)" }
    )
}
