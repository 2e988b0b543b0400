import Recording
import Synchronization

/// What the user decided for each sandboxed app: the recorder's `Permissions`, kept in settings.json as
/// "appPermissions". An app not listed has not been decided yet.
final class AppPermissions: Sendable {
    enum Decision: String, Sendable, CaseIterable {
        case allowed, denied
    }

    private let decisions: Mutex<[String: Decision]>
    private let settingsFile: String

    /// The decisions settings.json keeps; an entry with an app id no sandbox gives, or a value other than
    /// "allowed" or "denied", is left out with a warning, so that a hand edit never allows more than it says.
    init(_ settings: Settings, settingsFile: String) {
        var kept: [String: Decision] = [:]
        for (app, value) in settings.appPermissions ?? [:] {
            guard Self.isAppID(app), let decision = Decision(rawValue: value) else {
                Log.warning(
                    "\(settingsFile): appPermissions \"\(app.prefix(80))\": \"\(value.prefix(20))\" is not an app id and allowed or denied; left out"
                )
                continue
            }
            kept[app] = decision
        }
        decisions = Mutex(kept)
        self.settingsFile = settingsFile
    }

    var all: [String: Decision] { decisions.withLock { $0 } }

    func decision(for app: String) -> Decision? { decisions.withLock { $0[app] } }

    /// Keeps `decision` for `app`; nil forgets it, so that the app is asked again.
    func decide(_ app: String, _ decision: Decision?) {
        let all = decisions.withLock { decisions in
            decisions[app] = decision
            return decisions
        }
        Settings.update(at: settingsFile) { $0.appPermissions = all.isEmpty ? nil : all.mapValues(\.rawValue) }
    }

    /// Whether `text` can be a Flatpak or Snap app id: letters, digits, `.`, `_` and `-`, at most 255 bytes
    /// (Flatpak's limit). Anything else is refused before it reaches a file, a notification or the journal.
    static func isAppID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 255 && text.utf8.allSatisfy(appIDBytes.contains)
    }

    private static let appIDBytes = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-".utf8)
}
