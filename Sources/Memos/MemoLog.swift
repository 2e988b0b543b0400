/// Where the memo service writes the lines a person reads in the journal: the service hands it its log.
public struct MemoLog: Sendable {
    public let error: @Sendable (String) -> Void
    public let warning: @Sendable (String) -> Void
    public let info: @Sendable (String) -> Void

    public init(
        error: @escaping @Sendable (String) -> Void, warning: @escaping @Sendable (String) -> Void,
        info: @escaping @Sendable (String) -> Void
    ) {
        self.error = error
        self.warning = warning
        self.info = info
    }
}
