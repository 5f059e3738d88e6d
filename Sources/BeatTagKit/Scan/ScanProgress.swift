/// What a progress display needs, sent after every file.
public struct ScanProgress: Sendable {
    public var done: Int
    public var total: Int
    public var elapsed: Double
    public var currentPath: String
}
