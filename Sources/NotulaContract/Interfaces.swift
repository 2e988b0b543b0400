import DBus

/// One interface of the contract: its name and the members its `dbus/<name>.xml` declares.
public protocol NotulaInterface: Sendable {
    associatedtype Method: RawRepresentable<MemberName>, CaseIterable, Sendable
    associatedtype Signal: RawRepresentable<MemberName>, CaseIterable, Sendable
    associatedtype Property: RawRepresentable<String>, CaseIterable, Sendable
    static var name: InterfaceName { get }
}

/// The signals of an interface that has none.
public enum NoSignal: RawRepresentable, CaseIterable, Sendable {
    public init?(rawValue: MemberName) { nil }
    public var rawValue: MemberName {
        switch self {}
    }
}

/// The properties of an interface that has none.
public enum NoProperty: RawRepresentable, CaseIterable, Sendable {
    public init?(rawValue: String) { nil }
    public var rawValue: String {
        switch self {}
    }
}

extension NotulaBus {
    /// `org.notula.Notula1.Recorder`, at `recorderPath`.
    public enum Recorder: NotulaInterface {
        public static let name: InterfaceName = "org.notula.Notula1.Recorder"

        public enum Method: MemberName, CaseIterable, Sendable {
            case toggle = "Toggle", start = "Start", pause = "Pause", resume = "Resume", process = "Process"
            case processTo = "ProcessTo", discard = "Discard", watchText = "WatchText", dictate = "Dictate"
            case openAudio = "OpenAudio", stop = "Stop", setPermission = "SetPermission"
        }

        public enum Signal: MemberName, CaseIterable, Sendable {
            case processed = "Processed", delivered = "Delivered", failed = "Failed", endedOnSilence = "EndedOnSilence"
        }

        public enum Property: String, CaseIterable, Sendable {
            case state = "State", pauseReason = "PauseReason", elapsed = "Elapsed", timerAnchor = "TimerAnchor"
            case level = "Level", locale = "Locale", output = "Output", typing = "Typing", silenceSeconds = "SilenceSeconds"
            case live = "Live", inputOpen = "InputOpen", listeners = "Listeners", permissions = "Permissions"
            case vocabulary = "Vocabulary", alsoSpoken = "AlsoSpoken"
        }
    }

    /// `org.notula.Notula1.Models`, at `modelsPath`.
    public enum Models: NotulaInterface {
        public static let name: InterfaceName = "org.notula.Notula1.Models"

        public enum Method: MemberName, CaseIterable, Sendable {
            case install = "Install", cancel = "Cancel", remove = "Remove", refresh = "Refresh"
            case installModel = "InstallModel", useModel = "UseModel", removeModel = "RemoveModel"
        }

        public enum Signal: MemberName, CaseIterable, Sendable {
            case downloadStarted = "DownloadStarted", downloadFinished = "DownloadFinished"
            case downloadCancelled = "DownloadCancelled", downloadFailed = "DownloadFailed"
        }

        public enum Property: String, CaseIterable, Sendable {
            case supportedLocales = "SupportedLocales", installedLocales = "InstalledLocales"
            case downloadingLocale = "DownloadingLocale", downloadProgress = "DownloadProgress"
            case availableModels = "AvailableModels", modelsInUse = "ModelsInUse", measuredMemory = "MeasuredMemory"
            case accurateModels = "AccurateModels"
        }
    }

    /// `org.notula.Notula1.Library`, at `libraryPath`.
    public enum Library: NotulaInterface {
        public static let name: InterfaceName = "org.notula.Notula1.Library"

        public enum Method: MemberName, CaseIterable, Sendable {
            case list = "List", search = "Search"
        }

        public typealias Signal = NoSignal

        public enum Property: String, CaseIterable, Sendable {
            case count = "Count", playing = "Playing", playbackState = "PlaybackState"
        }
    }

    /// `org.notula.Notula1.Memo`, at each memo's path below `memosPath`.
    public enum Memo: NotulaInterface {
        public static let name: InterfaceName = "org.notula.Notula1.Memo"

        public enum Method: MemberName, CaseIterable, Sendable {
            case getTranscript = "GetTranscript", export = "Export", play = "Play", stopPlayback = "StopPlayback"
            case pause = "Pause", resume = "Resume", seek = "Seek"
            case transcribe = "Transcribe", delete = "Delete"
        }

        public typealias Signal = NoSignal

        public enum Property: String, CaseIterable, Sendable {
            case title = "Title", created = "Created", locale = "Locale", status = "Status", audioFile = "AudioFile"
            case duration = "Duration", position = "Position", model = "Model"
            case failure = "Failure", pendingUtterances = "PendingUtterances", utteranceModels = "UtteranceModels"
        }
    }

    /// `org.notula.Notula1.FocusedWindow`, which the GNOME Shell extension exports at `focusedWindowPath`.
    public enum FocusedWindow: NotulaInterface {
        public static let name: InterfaceName = "org.notula.Notula1.FocusedWindow"
        public enum Method: MemberName, CaseIterable, Sendable { case describe = "Describe" }
        public typealias Signal = NoSignal
        public typealias Property = NoProperty
    }

    /// `org.notula.Notula1.FocusReport`, which notulad exports at `focusReportPath` for KWin's script.
    public enum FocusReport: NotulaInterface {
        public static let name: InterfaceName = "org.notula.Notula1.FocusReport"
        public enum Method: MemberName, CaseIterable, Sendable { case report = "Report" }
        public typealias Signal = NoSignal
        public typealias Property = NoProperty
    }
}
