import Notifying
import Recording
import Testing

@Suite("The live notification")
struct LiveNotificationTests {
    @Test func postedAtTheStartReplacedAtEveryTransitionClosedAtTheEnd() async {
        let server = NotificationServerDouble()
        let (notifier, _) = await startedNotifier(server)
        await notifier.report(snapshot(.recording))
        await notifier.report(snapshot(.paused, seconds: 134))
        await notifier.report(snapshot(.recording, seconds: 134))
        await notifier.report(snapshot(.processing, seconds: 3725))
        await notifier.report(snapshot(.idle))

        let calls = await server.calls
        guard calls.count == 6, case .notify(let started, 0) = calls[1], case .notify(let paused, 1) = calls[2],
            case .notify(let resumed, 1) = calls[3], case .notify(let sent, 1) = calls[4]
        else {
            Issue.record("calls: \(calls)")
            return
        }
        #expect(calls.first == .capabilities)
        #expect(calls.last == .close(1))
        #expect(started.summary == "Recording")
        #expect(started.body == "Recording since 14:03", "no figure that is wrong a second later")
        #expect(started.actions == [.init("toggle", "Pause"), .init("process", "Send"), .init("discard", "Discard")])
        #expect(started.expireTimeout == 0)
        #expect(
            started.hints
                == NotificationHints(
                    urgency: .normal, category: "x-notula.recording", desktopEntry: "org.notula.Notula", resident: true, suppressSound: true
                ))
        #expect(paused.summary == "Paused")
        #expect(paused.body == "2 minutes 14 seconds recorded, started at 14:03")
        #expect(paused.actions.map(\.label) == ["Resume", "Send", "Discard"])
        #expect(resumed.body == "Recording since 14:03")
        #expect(resumed.actions.map(\.label) == ["Pause", "Send", "Discard"])
        #expect(sent.summary == "Transcribing…")
        #expect(sent.body == "1 hour 2 minutes 5 seconds recorded, started at 14:03")
        #expect(sent.actions == [.init("discard", "Discard")], "only what the state allows")
    }

    @Test("A stopping service closes the live notification of the recording it keeps: its buttons would reach nobody")
    func withdrawnWhenTheServiceStops() async {
        let server = NotificationServerDouble()
        let (notifier, _) = await startedNotifier(server)
        await notifier.report(snapshot(.paused, seconds: 12))
        await notifier.withdrawLive()
        await notifier.settle()
        #expect(await server.calls.last == .close(1))
    }

    @Test func buttonsOfOurOwnNotificationDriveTheRecorderAndOthersDoNot() async {
        let server = NotificationServerDouble()
        let (notifier, sent) = await startedNotifier(server)
        await notifier.report(snapshot(.recording))
        await notifier.handle(.actionInvoked(id: 7, key: "toggle"))
        await notifier.handle(.actionInvoked(id: 1, key: "start"))
        await notifier.handle(.actionInvoked(id: 1, key: "toggle"))
        await notifier.handle(.actionInvoked(id: 1, key: "process"))
        await notifier.handle(.actionInvoked(id: 1, key: "discard"))
        #expect(sent.actions == ["toggle", "process", "discard"])
    }

    @Test func closedByTheUserItComesBackAtTheNextTransition() async {
        let server = NotificationServerDouble()
        let (notifier, sent) = await startedNotifier(server)
        await notifier.report(snapshot(.recording))
        await notifier.handle(.closed(id: 1, reason: 2))
        await notifier.handle(.actionInvoked(id: 1, key: "toggle"))
        await notifier.report(snapshot(.paused, seconds: 5))
        let posts = await server.notified
        #expect(posts.map(\.replacing) == [0, 0])
        #expect(posts.last?.0.summary == "Paused")
        #expect(sent.actions.isEmpty, "a button of a closed notification is stale")
    }

    @Test func withoutActionsThereAreNoButtons() async {
        let server = NotificationServerDouble(capabilities: ["body"])
        let (notifier, _) = await startedNotifier(server)
        await notifier.report(snapshot(.recording))
        #expect(await server.notified.first?.0.actions == [])
    }

    @Test func withoutAServerNothingIsPostedAndOneLineSaysSo() async {
        let server = NotificationServerDouble(capabilities: nil)
        let (notifier, sent) = await startedNotifier(server)
        await notifier.report(snapshot(.recording))
        await notifier.report(snapshot(.paused, seconds: 1))
        #expect(await server.notified.isEmpty)
        #expect(sent.log.count == 1)
        #expect(sent.log.first?.hasPrefix("No notification server on the session bus") == true, "\(sent.log)")

        await server.offer(["actions"])
        await notifier.handle(.appeared)
        await notifier.settle()
        let posts = await server.notified
        #expect(posts.count == 1)
        #expect(posts.first?.0.summary == "Paused", "a server that appears mid-recording gets the live notification")
    }

    @Test func aRestartedServerGetsTheLiveNotificationAgain() async {
        let server = NotificationServerDouble()
        let (notifier, _) = await startedNotifier(server)
        await notifier.report(snapshot(.recording))
        await notifier.handle(.vanished)
        await notifier.report(snapshot(.paused, seconds: 3))
        #expect(await server.notified.count == 1, "nothing is posted while no server is there")
        await server.offer(["body"])
        await notifier.handle(.appeared)
        await notifier.settle()
        let posts = await server.notified
        #expect(posts.count == 2)
        #expect(posts.last?.replacing == 0, "the old server's id means nothing to the new one")
        #expect(posts.last?.0.summary == "Paused")
        #expect(posts.last?.0.actions == [], "capabilities are asked again")
    }

    @Test func aFailingServerIsLoggedOnceAndTheFlowGoesOn() async {
        let server = NotificationServerDouble()
        let (notifier, sent) = await startedNotifier(server)
        await server.failNotify()
        await notifier.report(snapshot(.recording))
        await notifier.report(snapshot(.paused, seconds: 2))
        await notifier.report(snapshot(.recording, seconds: 2))
        #expect(await server.notified.map(\.replacing) == [0, 0, 0])
        #expect(sent.log.filter { $0.contains("failed a call") }.count == 1, "\(sent.log)")
    }

    @Test func transitionsFasterThanTheServerAreFoldedIntoTheLatest() async {
        let server = NotificationServerDouble()
        let (notifier, _) = await startedNotifier(server)
        await notifier.recordingChanged(snapshot(.recording))
        await notifier.recordingChanged(snapshot(.paused, seconds: 1))
        await notifier.recordingChanged(snapshot(.recording, seconds: 1))
        await notifier.recordingChanged(snapshot(.paused, seconds: 2))
        await notifier.settle()
        let posts = await server.notified
        #expect(posts.count == 1, "one post for four transitions reported before the chain's turn")
        #expect(posts.first?.0.summary == "Paused")
    }

    @Test func aNewRecordingHasItsOwnStart() async {
        let server = NotificationServerDouble()
        let sent = Sent()
        let times = [ClockTime(hour: 9, minute: 5), ClockTime(hour: 23, minute: 59)]
        let counter = Counter()
        let notifier = Notifier(
            isolation: TestIsolation(), server: server, texts: .english, controls: sent, answers: sent,
            clock: { times[min(counter.next(), 1)] }, log: sent.write)
        await notifier.report(snapshot(.recording, recording: "1"))
        await notifier.report(snapshot(.paused, seconds: 1, recording: "1"))
        await notifier.report(snapshot(.idle))
        await notifier.report(snapshot(.recording, recording: "2"))
        #expect(await server.notified.map { String($0.0.body.suffix(5)) } == ["09:05", "09:05", "23:59"])
    }
}
