import DBus

/// The states the recorder reports in `PropertiesChanged`, up to and including `last`.
public func states(until last: String, in events: inout AsyncStream<Message>.Iterator) async throws -> [String] {
    var seen: [String] = []
    while seen.last != last, let message = await events.next() {
        if let changed = try? message.argument(1, as: [String: Variant].self), let state = changed["State"] {
            seen.append(try state.get(String.self))
        }
    }
    return seen
}
