import Glibc

/// Where a sound of the freedesktop sound theme is, by the Sound Theme and Sound Naming specifications:
/// `sounds/freedesktop/stereo/NAME.{oga,ogg,wav}` under `$XDG_DATA_HOME`, then each of `$XDG_DATA_DIRS`,
/// a name missing in all of them looked up again without its last part (`dialog-error`, then `dialog`).
struct SoundTheme: Sendable {
    let folders: [String]

    init(environment: [String: String]) {
        let home = environment["HOME"] ?? "/"
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
        let dataDirs = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        folders = ([dataHome] + dataDirs).map { $0 + "/sounds/freedesktop/stereo" }
    }

    /// The file of `name`, or nil when no folder has it nor a shorter name of it.
    func file(of name: String) -> String? {
        var name = Substring(name)
        while !name.isEmpty {
            for folder in folders {
                for suffix in ["oga", "ogg", "wav"] {
                    let path = "\(folder)/\(name).\(suffix)"
                    if access(path, R_OK) == 0 { return path }
                }
            }
            guard let dash = name.lastIndex(of: "-") else { return nil }
            name = name[..<dash]
        }
        return nil
    }
}
