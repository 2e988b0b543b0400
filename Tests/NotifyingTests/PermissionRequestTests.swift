import Notifying
import Testing

@Suite("A sandboxed app's request to hear the recordings")
struct PermissionRequestTests {
    @Test func oneRequestPerAppAtATimeWithAllowAndDenyAndTheAnswerGoesBack() async {
        let server = NotificationServerDouble()
        let (notifier, sent) = await startedNotifier(server)
        await notifier.askPermission(for: "org.example.Spy")
        await notifier.askPermission(for: "org.example.Spy")
        await notifier.askPermission(for: "org.example.Other")
        await notifier.settle()
        let posts = await server.notified
        #expect(
            posts.map(\.0.summary) == ["org.example.Spy wants to hear your recordings", "org.example.Other wants to hear your recordings"])
        #expect(posts[0].0.actions == [NotificationAction("allow", "Allow"), NotificationAction("deny", "Deny")])
        #expect(posts[0].0.body.hasSuffix("notula permissions allow|deny|revoke org.example.Spy"), "\(posts[0].0.body)")
        #expect(posts[0].0.expireTimeout == 0, "it waits for an answer")

        // The mock numbers from 1: Spy's is 1, Other's 2. A foreign id and a click on the body answer nothing.
        await notifier.handle(.actionInvoked(id: 7, key: "allow"))
        await notifier.handle(.actionInvoked(id: 1, key: "default"))
        #expect(sent.actions.isEmpty)
        await notifier.handle(.actionInvoked(id: 1, key: "allow"))
        await notifier.handle(.actionInvoked(id: 2, key: "deny"))
        await notifier.handle(.actionInvoked(id: 1, key: "deny"))
        #expect(sent.actions == ["allow org.example.Spy", "deny org.example.Other"], "an answered request answers once")
    }

    /// The server's signal with the answer can overtake its reply with the id (seen in CI): the answer still counts.
    @Test func anAnswerArrivingBeforeTheRequestsIdCounts() async {
        let server = NotificationServerDouble()
        let (notifier, sent) = await startedNotifier(server)
        await server.holdNotifies()
        await notifier.askPermission(for: "org.example.Spy")
        await server.untilHeld()
        await notifier.handle(.actionInvoked(id: 1, key: "deny"))
        await notifier.handle(.actionInvoked(id: 9, key: "allow"))
        #expect(sent.actions.isEmpty, "not answered before the id is known")
        await server.answerHeld()
        await notifier.settle()
        #expect(sent.actions == ["deny org.example.Spy"], "another id's answer is not taken for it")

        await notifier.askPermission(for: "org.example.Other")
        await notifier.settle()
        await notifier.handle(.actionInvoked(id: 9, key: "allow"))
        #expect(sent.actions == ["deny org.example.Spy"], "an early press is forgotten once its call answered")
    }

    @Test func aDismissedRequestIsAskedAgainAtTheNextCall() async {
        let server = NotificationServerDouble()
        let (notifier, _) = await startedNotifier(server)
        await notifier.askPermission(for: "org.example.Spy")
        await notifier.settle()
        await notifier.handle(.closed(id: 1, reason: 2))
        await notifier.askPermission(for: "org.example.Spy")
        await notifier.settle()
        #expect(await server.notified.count == 2)
    }

    @Test func aDecisionMadeElsewhereTakesTheRequestOffTheScreen() async {
        let server = NotificationServerDouble()
        let (notifier, sent) = await startedNotifier(server)
        await notifier.askPermission(for: "org.example.Spy")
        await notifier.settle()
        await notifier.withdrawRequest(for: "org.example.Spy")
        await notifier.withdrawRequest(for: "org.example.Other")
        await notifier.settle()
        #expect(await server.calls.last == .close(1))
        await notifier.handle(.actionInvoked(id: 1, key: "deny"))
        #expect(sent.actions.isEmpty, "a late press of its button undoes nothing")
    }

    @Test func dutchAsksInDutch() async {
        let server = NotificationServerDouble()
        let (notifier, _) = await startedNotifier(server, texts: .dutch)
        await notifier.askPermission(for: "org.example.Spy")
        await notifier.settle()
        let request = await server.notified.first?.0
        #expect(request?.summary == "org.example.Spy wil je opnames horen")
        #expect(request?.actions.map(\.label) == ["Toestaan", "Weigeren"])
    }
}
