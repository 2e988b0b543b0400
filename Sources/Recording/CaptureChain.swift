/// A capture call queued by a transition, tagged with the recording it belongs to.
enum CaptureStep: Sendable {
    /// With a promise when the caller waits for the input to open; without, a failure is reported.
    case start(RecordingID, locale: String, Promise?)
    case pause(RecordingID)
    /// With a promise when the caller waits for the input to reopen.
    case resume(RecordingID, Promise?)
    case stop(RecordingID)
    /// The first recording's file is full: the audio goes on as the second.
    case split(RecordingID, next: RecordingID)
    case discard(RecordingID)
    /// Closes the file for the service's exit and hands the audio back instead of on.
    case close(RecordingID, @Sendable (CapturedAudio?) -> Void)
    case settle(Promise)
}

// The capture calls are carried out one after the other, in the order the transitions queued
// them, however fast the transitions come: a single consumer awaits each before the next.
extension Recorder {
    func runCaptureChain(_ queued: AsyncStream<CaptureStep>) async {
        for await step in queued { await carryOut(step) }
    }

    private func carryOut(_ step: CaptureStep) async {
        switch step {
        case .start(let id, let locale, let promise):
            // Steps run in order: every step of an earlier recording has been carried out by now,
            // so those are forgotten; a later recording already discarded stays abandoned.
            let earlier = awaitingStart.prefix { $0 != id }
            abandoned.subtract(earlier)
            awaitingStart.removeFirst(min(earlier.count + 1, awaitingStart.count))
            guard !abandoned.contains(id) else { return promise?.resolve(nil) ?? () }
            do throws(CaptureError) {
                try await capture.start(recording: id, locale: locale)
                await cueBeforeSpeech()
                inputOpened(for: id)
                promise?.resolve(nil)
            } catch {
                abandoned.insert(id)
                released(id, .released)
                if recording == id { finish() }
                if let promise {
                    promise.resolve(RecordingError(error))
                } else {
                    reporter.failed(RecordingError(error), locale: locale)
                }
            }
        case .pause(let id):
            guard !abandoned.contains(id) else { return }
            do throws(CaptureError) { try await capture.pause() } catch { captureLost(id, RecordingError(error)) }
        case .resume(let id, let promise):
            guard !abandoned.contains(id) else { return promise?.resolve(nil) ?? () }
            do throws(CaptureError) {
                try await capture.resume()
                await cueBeforeSpeech()
                inputOpened(for: id)
                promise?.resolve(nil)
            } catch {
                captureLost(id, RecordingError(error))
                promise?.resolve(RecordingError(error))
            }
        case .stop(let id):
            // A discarded recording's input is released by its discard step, which follows.
            guard !abandoned.contains(id) else { return }
            do throws(CaptureError) {
                let audio = try await capture.stop()
                released(id, .released)
                await handOn(audio, of: id)
            } catch {
                released(id, .releasedWithError(RecordingError(error).message))
                let locale = failureLocale
                if recording == id { finish() }
                reporter.failed(RecordingError(error), locale: locale)
            }
        case .split(let id, let next):
            // Even when the second part was discarded meanwhile: the first is a memo by now.
            do throws(CaptureError) {
                let first = try await capture.split(continuingAs: next)
                continued(id, as: next, after: first)
            } catch {
                splitFailed(id, as: next, RecordingError(error))
            }
        case .discard(let id):
            await capture.discard()
            released(id, .released)
        case .close(let id, let handBack):
            guard !abandoned.contains(id) else { return handBack(nil) }
            do throws(CaptureError) { handBack(try await capture.stop()) } catch {
                reporter.failed(RecordingError(error), locale: failureLocale)
                handBack(nil)
            }
        case .settle(let promise):
            promise.resolve(nil)
        }
    }

    /// Processing runs as a task of its own, which a discard cancels, and the chain goes on without
    /// waiting for it: a transcription may take minutes to end, even cancelled, and the next
    /// recording's steps must not wait behind it.
    private func handOn(_ audio: CapturedAudio, of id: RecordingID) async {
        guard !abandoned.contains(id) else { return await processing.discard(audio) }
        let processing = self.processing
        let task = Task { () async -> Result<Void, RecordingError> in
            do throws(RecordingError) {
                try await processing.process(audio, recording: id)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        processingTasks[id] = task
        Task { await processingEnded(id, audio, task) }
    }

    /// A cancelled task was discarded (by now the chain may have forgotten it was abandoned);
    /// otherwise the recording ends, unless it ended meanwhile.
    private func processingEnded(_ id: RecordingID, _ audio: CapturedAudio, _ task: Task<Result<Void, RecordingError>, Never>)
        async
    {
        let result = await task.value
        processingTasks[id] = nil
        guard !task.isCancelled else { return await processing.discard(audio) }
        guard recording == id, state == .processing else { return }
        switch result {
        case .success: reporter.processed(id)
        case .failure(let error): reporter.failed(error, locale: failureLocale)
        }
        finish()
    }

    /// The capture went away under a running recording, or its disk filled: the flow pauses as
    /// Pause does (the pause step corks a stream still there, and is nothing for a lost one),
    /// keeping what was captured; the next resume reopens the input. A recording a call had
    /// paused stays paused: there is no input to go back to.
    func captureLost(_ id: RecordingID?, _ error: RecordingError) {
        if id == nil || id == recording {
            let reason: PauseReason = if case .noSpace = error { .diskFull } else { .inputLost }
            if state == .recording {
                pauseRecording(because: reason)
            } else if state == .paused, pauseReason == .call {
                pauseReason = reason
                report()
            }
        }
        reporter.failed(error, locale: failureLocale)
    }

    func followCaptureEvents() async {
        for await event in capture.events {
            switch event {
            case .lost(let message): captureLost(nil, .deviceUnavailable(message))
            case .outOfSpace(let message): captureLost(nil, .noSpace(message))
            case .moved(let source): reporter.inputMoved(to: source)
            case .callStarted: interrupt(.call)
            case .callEnded: interruptionEnded(.call)
            case .lengthLimitReached(let id): continueAsNewMemo(id)
            case .audioArrived(let time): audioArrived(at: time)
            }
        }
    }
}
