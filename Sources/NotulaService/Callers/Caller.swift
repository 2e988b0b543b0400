/// Who called, named as xdg-desktop-portal names callers.
struct Caller: Sendable, Equatable {
    /// The unique name, ":1.42".
    let busName: String
    let processID: UInt32
    /// Flatpak's or Snap's app id when the process is sandboxed, else nil. Empty when the process is sandboxed but its
    /// id cannot be read (a `.flatpak-info` notulad may not read, a Snap label it cannot parse): never a permission's key.
    let appID: String?
    /// What a person is shown: the app id when sandboxed, else the executable's name.
    let program: String

    var isSandboxed: Bool { appID != nil }
}
