import DBus
import Foundation
import NotulaContract
import NotulaTestSupport

extension ServiceUnderTest {
    /// The process id of the running notulad, as its bus knows it.
    func processID() async throws -> UInt32 {
        try await client.processID(of: (try await client.owner(of: NotulaBus.name))!)
    }

    /// notulad's peak resident memory so far (VmHWM), in bytes.
    func peakResidentBytes() async throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(try await processID())/status", encoding: .utf8)
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// The unique name of notulad's own connection to another bus (the system bus), seen from `peer` on it.
    func connectionName(on peer: Bus) async throws -> BusName? {
        let pid = try await processID()
        let names = try await peer.callDaemon("ListNames").argument(0, as: [String].self)
        for name in names where name.hasPrefix(":") {
            if (try? await peer.processID(of: name)) == pid { return BusName(name) }
        }
        return nil
    }
}
