import DBus
import Delivering
import Foundation
import NotulaTestSupport
import Testing

/// Where the portal can remember the permission (version 2, GNOME 46+), the keyboard keeps the token it gives in
/// the file it was handed, for the user alone, and passes it on the next session: notulad restarted asks nobody.
/// Against a python3-dbusmock portal: Debian 12's real one is version 1 and gives none.
@Suite struct PortalRestoreTokenTests {
    @Test func theTokenIsKeptForTheUserAloneAndPassedToTheNextSession() async throws {
        let bus = try PrivateBus()
        let client = try await bus.connect()
        defer { Task { await client.close() } }
        let portal = try await RemoteDesktopPortalMock(on: bus, for: client)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("notula-token-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let tokenFile = folder.appendingPathComponent("portal-restore-token")

        try await PortalKeyboard(bus: client, restoreTokenFile: tokenFile.path).deliver("a")
        let first = await portal.nextDeviceSelection()
        #expect(first?["types"] == .uint32(1))
        #expect(first?["persist_mode"] == .uint32(2))
        #expect(first?["restore_token"] == nil)
        // The Shift tap that mutter may drop, then the text.
        var keys: [Int32] = []
        for _ in 0..<4 { if let event = await portal.nextKeyEvent(), event.state == 1 { keys.append(event.keysym) } }
        #expect(keys == [0xffe1, 0x61])
        #expect(try String(contentsOf: tokenFile, encoding: .utf8) == "token-1")
        let mode = try FileManager.default.attributesOfItem(atPath: tokenFile.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        // notulad restarted: a new keyboard, the same file.
        try await PortalKeyboard(bus: client, restoreTokenFile: tokenFile.path).deliver("b")
        #expect(await portal.nextDeviceSelection()?["restore_token"] == .string("token-1"))
        #expect(try String(contentsOf: tokenFile, encoding: .utf8) == "token-2")
    }
}
