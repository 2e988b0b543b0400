import DBus
import Delivering
import Dictating
import Memos
import Models
import NotulaContract
import Recording
import Speech
import Writing

/// `org.notula.Notula1.Recorder`: the recorder's transitions and state on the bus.
///
/// The recorder shares the bus's executor, so each handler calls its transition synchronously,
/// in the order the calls arrived (`assumeIsolated` states that, and checks it).
enum RecorderObject {
    static func interface(
        _ recorder: Recorder, locale: LocaleChoice, output: OutputChoice, writing: TextWriting, silence: SilenceEnding,
        text: TextWatchers, audio: AudioReaders, inputOpen: @escaping @Sendable () -> Bool, models: ModelStore, gate: AccessGate, bus: Bus
    ) -> Interface {
        let stops = RepeatedStops()
        let starter = RecordingStarter()
        // What hears the user or says where their words go waits for the gate; starting and stopping does not.
        let gated = [
            processTo(recorder, output: output, stops: stops),
            dictate(recorder, output: output, silence: silence, stops: stops, starter: starter),
            watchText(text, bus: bus), openAudio(audio, bus: bus),
        ].map(gate.guarding)
        return Interface(
            NotulaBus.recorderInterface,
            methods: NotulaBus.Recorder.Method.allCases.compactMap { name in
                RecordingAction(name).map { method(name, $0, recorder, stops: stops, starter: starter) }
            } + gated + [stop(recorder, stops: stops), gate.members.method],
            properties: [
                NotulaBus.Recorder.property(.state, "s") { .string(snapshot(recorder).state.rawValue) },
                NotulaBus.Recorder.property(.elapsed, "d", emitsChanged: .false) { .double(snapshot(recorder).elapsed.seconds) },
                NotulaBus.Recorder.property(.timerAnchor, "x") { .int64(snapshot(recorder).timerAnchor?.microseconds ?? 0) },
                NotulaBus.Recorder.property(.pauseReason, "s") { .string(snapshot(recorder).pauseReason?.rawValue ?? "") },
                NotulaBus.Recorder.property(.level, "d", emitsChanged: .false) { .double(recorder.level) },
                NotulaBus.Recorder.property(.inputOpen, "b") { .boolean(inputOpen()) },
                NotulaBus.Recorder.property(.listeners, Listener.busSignature) {
                    .array(element: Listener.busElement, ListenersWiring.current(audio: audio, text: text).map(\.busValue))
                },
                NotulaBus.Recorder.settableProperty(
                    .locale, "s", getter: { .string(locale.current) },
                    replyingSetter: { value throws(BusError) in
                        guard case .string(let tag) = value else { throw BusError.invalidArgs("Locale is a string") }
                        return try pick(tag, locale: locale, models: models)
                    }),
                NotulaBus.Recorder.property(
                    .alsoSpoken, "as", getter: { locale.alsoSpoken.dbusValue },
                    setter: { value throws(BusError) in
                        guard let tags = try? [String](dbusValue: value) else { throw BusError.invalidArgs("AlsoSpoken is a list of strings (as)") }
                        do throws(SpokenLanguagesError) { locale.speak(also: try SpokenLanguages(tags)) } catch {
                            throw BusError.invalidArgs(error.message)
                        }
                        announce(.alsoSpoken, on: bus)
                    }),
                gate.guarding(
                    NotulaBus.Recorder.property(
                        .output, "s", getter: { .string(output.output.rawValue) },
                        setter: { value throws(BusError) in
                            output.choose(try textOutput(value, of: "Output"))
                            announce(.output, on: bus)
                        })),
                gate.guarding(
                    NotulaBus.Recorder.property(
                        .typing, "s", getter: { .string(output.typing.value) },
                        setter: { value throws(BusError) in
                            guard case .string(let spelled) = value, let typing = TypingChoice(spelled) else {
                                throw BusError.invalidArgs("Typing is one of \(TypingChoice.spelled)")
                            }
                            output.choose(typing)
                            announce(.typing, on: bus)
                        })),
                gate.guarding(
                    NotulaBus.Recorder.property(
                        .live, "b", getter: { .boolean(output.live) },
                        setter: { value throws(BusError) in
                            guard case .boolean(let live) = value else { throw BusError.invalidArgs("Live is true or false (b)") }
                            output.choose(live: live)
                            announce(.live, on: bus)
                        })),
                gate.guarding(vocabulary(writing, bus: bus), reads: true),
                gate.members.property,
                NotulaBus.Recorder.property(
                    .silenceSeconds, "d", getter: { .double(silence.seconds) },
                    setter: { value throws(BusError) in
                        guard case .double(let seconds) = value else { throw BusError.invalidArgs("SilenceSeconds is a number (d)") }
                        do throws(WaitOutOfRange) { try silence.choose(seconds) } catch { throw BusError.invalidArgs(error.message) }
                        announce(.silenceSeconds, on: bus)
                    }),
            ],
            signals: [
                NotulaBus.Recorder.signal(.processed, [Argument("memo", "o")]),
                NotulaBus.Recorder.signal(.delivered, [Argument("memo", "o"), Argument("method", "s")]),
                NotulaBus.Recorder.signal(.failed, [Argument("error_name", "s"), Argument("message", "s")]),
                NotulaBus.Recorder.signal(.endedOnSilence, [Argument("memo", "o")]),
            ])
    }

    private static func method(
        _ method: NotulaBus.Recorder.Method, _ action: RecordingAction, _ recorder: Recorder, stops: RepeatedStops,
        starter: RecordingStarter
    ) -> Method {
        NotulaBus.Recorder.method(method, outputs: method == .process ? [Argument("memo", "o")] : []) { message throws(BusError) in
            stops.forget(message.sender)
            let outcome = recorder.assumeIsolated { recorder in
                let before = recorder.recording
                defer { starter.note(message.sender, before: before, after: recorder.recording) }
                return Result { () throws(RecordingError) in try recorder.perform(action, for: .waiting) }
            }
            do throws(RecordingError) { return reply(after: try outcome.get()) } catch { throw BusError(error) }
        }
    }

    /// `Process`, its memo's text then going to the output the caller names, for this recording only.
    private static func processTo(_ recorder: Recorder, output: OutputChoice, stops: RepeatedStops) -> Method {
        NotulaBus.Recorder.method(.processTo, inputs: [Argument("output", "s")], outputs: [Argument("memo", "o")]) {
            message throws(BusError) in
            stops.forget(message.sender)
            let chosen = try textOutput(.string(try message.argument(0)), of: "The output")
            let outcome = recorder.assumeIsolated { recorder in
                Result { () throws(RecordingError) in try recorder.perform(.process, for: .waiting) }
            }
            do throws(RecordingError) {
                let done = try outcome.get()
                // Processing runs as a task of its own: its Processed comes after this job, which notes the choice first.
                if let memo = done.memo { output.send(memo, to: chosen) }
                return reply(after: done)
            } catch { throw BusError(error) }
        }
    }

    /// `Dictate`: Start, with where the text goes and how long a quiet ends the recording chosen for it alone; refused
    /// during a recording another connection (or the tray, a notification, a shortcut) started, whose words would
    /// otherwise go where this caller says.
    private static func dictate(
        _ recorder: Recorder, output: OutputChoice, silence: SilenceEnding, stops: RepeatedStops, starter: RecordingStarter
    ) -> Method {
        NotulaBus.Recorder.method(.dictate, inputs: [Argument("output", "s"), Argument("silence_seconds", "d")]) {
            message throws(BusError) in
            stops.forget(message.sender)
            let chosen = try textOutput(.string(try message.argument(0)), of: "The output")
            let seconds: Double = try message.argument(1)
            do throws(WaitOutOfRange) { try SilenceEnding.check(seconds, of: "The silence") } catch {
                throw BusError.invalidArgs(error.message)
            }
            let takesOver = recorder.assumeIsolated { recorder in
                recorder.state == .recording && recorder.recording.map { !starter.started($0, by: message.sender) } ?? false
            }
            if takesOver {
                throw BusError(
                    .notAllowed,
                    "A recording started elsewhere (another program, the tray, a notification or a shortcut) is under way: "
                        + "Dictate may not send its words. Send or discard it first, or dictate from the program that started it.")
            }
            let outcome = recorder.assumeIsolated { recorder in
                let before = recorder.recording
                defer { starter.note(message.sender, before: before, after: recorder.recording) }
                return Result { () throws(RecordingError) in (try recorder.perform(.start, for: .waiting), recorder.recording) }
            }
            do throws(RecordingError) {
                let (started, recording) = try outcome.get()
                if let recording {
                    silence.end(recording, after: seconds)
                    output.send(recording, to: chosen)
                }
                return reply(after: started)
            } catch { throw BusError(error) }
        }
    }

    /// `Stop`: Process, answered once the input is released, with how; the same connection's repeat
    /// answers the same and stops nothing.
    private static func stop(_ recorder: Recorder, stops: RepeatedStops) -> Method {
        NotulaBus.Recorder.method(.stop, outputs: [Argument("outcome", "s"), Argument("error", "s")]) { message throws(BusError) in
            let caller = message.sender ?? ""
            let stopped: CommandOutcome
            if let repeated = stops.repeated(by: caller) {
                stopped = repeated
            } else {
                let outcome = recorder.assumeIsolated { recorder in
                    Result { () throws(RecordingError) in try recorder.perform(.stop, for: .waiting) }
                }
                do throws(RecordingError) { stopped = try outcome.get() } catch { throw BusError(error) }
                stops.note(stopped, by: caller)
            }
            guard stopped.memo != nil else { return .now(reply(.released)) }
            let release = stopped.release
            return .later { () throws(BusError) in reply(await release.wait()) }
        }
    }

    private static func reply(_ release: InputRelease) -> [Value] {
        switch release {
        case .released: [.string("released"), .string("")]
        case .releasedWithError(let error): [.string("released-with-error"), .string(error)]
        }
    }

    /// `WatchText`: a pipe of the live text for the caller, once its connection is known to take it.
    private static func watchText(_ text: TextWatchers, bus: Bus) -> Method {
        NotulaBus.Recorder.method(.watchText, outputs: [Argument("text", "h")]) { message throws(BusError) in
            guard let sender = message.sender else { throw BusError.invalidArgs("A call without a sender") }
            return .later { () throws(BusError) in
                try await fileDescriptorsReach(sender, bus: bus, what: "the live text")
                let caller = try await CallerIdentity.identify(sender, on: bus)
                return [.unixFD(try reader { () throws(ReaderError) in try text.newReader(for: caller) })]
            }
        }
    }

    /// `OpenAudio`: a pipe of the captured audio in the form the caller chose, once its connection is known to take it.
    private static func openAudio(_ audio: AudioReaders, bus: Bus) -> Method {
        NotulaBus.Recorder.method(.openAudio, inputs: [Argument("format", "s")], outputs: [Argument("audio", "h")]) {
            message throws(BusError) in
            guard let sender = message.sender else { throw BusError.invalidArgs("A call without a sender") }
            let spelled = try message.argument(0, as: String.self)
            guard let form = AudioForm(rawValue: spelled) else {
                throw BusError.invalidArgs("The audio comes as \(AudioForm.spelled), not \(spelled.prefix(40))")
            }
            return .later { () throws(BusError) in
                try await fileDescriptorsReach(sender, bus: bus, what: "the audio")
                let caller = try await CallerIdentity.identify(sender, on: bus)
                return [.unixFD(try reader { () throws(ReaderError) in try audio.newReader(for: caller, form: form) })]
            }
        }
    }

    /// The read end a new reader got, owned by the reply.
    /// - Throws: `LimitsExceeded` when as many read as may, `Failed` when no pipe could be made.
    private static func reader(_ newReader: () throws(ReaderError) -> Int32) throws(BusError) -> FileDescriptor {
        do throws(ReaderError) { return FileDescriptor(owning: try newReader()) } catch {
            switch error {
            case .tooMany(let message): throw BusError(.limitsExceeded, message)
            case .noPipe(let message): throw BusError(.failed, message)
            }
        }
    }

    /// - Throws: `NotSupported` when the caller's connection cannot receive file descriptors.
    private static func fileDescriptorsReach(_ caller: String, bus: Bus, what: String) async throws(BusError) {
        guard let peer = BusName(caller), try await bus.canPassFileDescriptors(to: peer) else {
            throw BusError(.notSupported, "This connection cannot receive file descriptors (over TCP, say); \(what) comes on a pipe")
        }
    }

    /// `Vocabulary`: the terms as vocabulary.txt says now; set, written there whole or refused whole.
    private static func vocabulary(_ writing: TextWriting, bus: Bus) -> Property {
        NotulaBus.Recorder.property(
            .vocabulary, "as", emitsChanged: .invalidates,
            getter: { writing.vocabulary.terms.dbusValue },
            setter: { value throws(BusError) in
                guard let terms = try? [String](dbusValue: value) else { throw BusError.invalidArgs("Vocabulary is a list of strings (as)") }
                let vocabulary: Vocabulary
                do throws(Vocabulary.Refusal) { vocabulary = try Vocabulary(checking: terms) } catch {
                    throw BusError.invalidArgs(error.message)
                }
                do throws(FileError) { try writing.keep(vocabulary) } catch { throw BusError.failed(error.message) }
                announce(.vocabulary, on: bus)
            })
    }

    private static func textOutput(_ value: Value, of name: String) throws(BusError) -> TextOutput {
        guard case .string(let spelled) = value, let output = TextOutput(rawValue: spelled) else {
            throw BusError.invalidArgs("\(name) is one of \(TextOutput.spelled)")
        }
        return output
    }

    /// `Locale`'s setter: the pick is answered at once, or once the catalog being fetched is known.
    private static func pick(_ tag: String, locale: LocaleChoice, models: ModelStore) throws(BusError) -> MethodReply {
        let pick: LocaleChoice.Pick
        do throws(ModelError) { pick = try locale.pick(tag, servedBy: models) } catch { throw BusError(error) }
        guard case .onceFetched(let work) = pick else { return .now([]) }
        return .later { () throws(BusError) in
            do throws(ModelError) { try await work() } catch { throw BusError(error) }
            return []
        }
    }

    private static func announce(_ property: NotulaBus.Recorder.Property, on bus: Bus) {
        bus.assumeIsolated { $0.emitPropertiesChanged(path: NotulaBus.recorderPath, interface: NotulaBus.Recorder.self, names: [property]) }
    }

    private static func snapshot(_ recorder: Recorder) -> RecorderSnapshot {
        recorder.assumeIsolated { $0.snapshot }
    }

    /// Opening the microphone is the one effect a caller waits for: `Start`, and `Resume` after
    /// the input was lost, fail with `DeviceUnavailable` when there is none.
    private static func reply(after outcome: CommandOutcome) -> MethodReply {
        if let memo = outcome.memo { return .now([.objectPath(MemoLibrary.path(of: memo.rawValue))]) }
        let confirmation = outcome.confirmation
        guard !confirmation.isImmediate else { return .now([]) }
        return .later { () throws(BusError) in
            do throws(RecordingError) { try await confirmation.wait() } catch { throw BusError(error) }
            return []
        }
    }
}

/// Reports the flow as the recorder object's signals, emitted before the call that caused
/// them is answered.
struct RecorderSignals: Reporting {
    let bus: Bus

    func stateChanged(_ snapshot: RecorderSnapshot) {
        Log.debug("State \(snapshot.state.rawValue), elapsed \(snapshot.elapsed.seconds) s")
        bus.assumeIsolated {
            $0.emitPropertiesChanged(
                path: NotulaBus.recorderPath, interface: NotulaBus.Recorder.self, names: [.state, .elapsed, .timerAnchor, .pauseReason])
        }
    }

    func timerStarted(_ snapshot: RecorderSnapshot) {
        bus.assumeIsolated {
            $0.emitPropertiesChanged(path: NotulaBus.recorderPath, interface: NotulaBus.Recorder.self, names: [.elapsed, .timerAnchor])
        }
    }

    /// Not a report of the flow: `LocaleChoice` tells it of each pick, on the bus's executor.
    func localePicked(_ locale: String) {
        Log.info("Transcribing in \(locale) from now on")
        bus.assumeIsolated { $0.emitPropertiesChanged(path: NotulaBus.recorderPath, interface: NotulaBus.Recorder.self, names: [.locale]) }
    }

    func processed(_ recording: RecordingID) {
        emit(.processed, [.objectPath(MemoLibrary.path(of: recording.rawValue))])
    }

    func failed(_ error: RecordingError, locale: String) {
        let busError = BusError(error)
        Log.warning("Recording failed: \(busError.message)")
        bus.assumeIsolated { $0.emitFailed(busError) }
    }

    /// Not an error, and no signal: the recording goes on; the notification tells the user.
    func inputMoved(to source: String) {
        Log.warning("The audio input moved to \(source); recording from there")
    }

    private func emit(_ signal: NotulaBus.Recorder.Signal, _ arguments: [Value]) {
        bus.assumeIsolated {
            try? $0.emit(path: NotulaBus.recorderPath, interface: NotulaBus.Recorder.self, signal: signal, arguments: arguments)
        }
    }
}

extension RecordingAction {
    /// The action a recorder method of the contract asks for; nil for one that is more than a transition or none.
    init?(_ method: NotulaBus.Recorder.Method) {
        switch method {
        case .toggle: self = .toggle
        case .start: self = .start
        case .pause: self = .pause
        case .resume: self = .resume
        case .process: self = .process
        case .discard: self = .discard
        case .processTo, .dictate, .watchText, .openAudio, .stop, .setPermission: return nil
        }
    }
}
