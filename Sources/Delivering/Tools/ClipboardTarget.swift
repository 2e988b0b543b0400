/// Leaves the text on the clipboard for the user to paste, until something else is copied: on Wayland through the
/// data-control protocol, on X11 through the X server's selection. Not hidden from clipboard managers: the user asked
/// for it to stay.
public struct ClipboardTarget: TextTarget {
    public var method: DeliveryMethod { .clipboard }

    private let clipboard: any ClipboardOwner
    private let timeLimit: Duration

    /// - Parameters:
    ///   - clipboard: the session's, found when it was probed.
    ///   - timeLimit: how long taking the clipboard may take before it is given up as hung.
    public init(clipboard: any ClipboardOwner, timeLimit: Duration = .seconds(10)) {
        self.clipboard = clipboard
        self.timeLimit = timeLimit
    }

    public func deliver(_ text: String) async throws(DeliveryError) {
        _ = try await clipboard.take(.lasting(text), timeLimit: timeLimit)
    }
}
