/// What a progress display needs, sent after every file, then after every recording the scan
/// looks for copies of (the last stage, which can take a while in a large library).
public struct ScanProgress: Sendable {
    public enum Stage: Sendable { case files, copies }
    public var done: Int
    public var total: Int
    public var elapsed: Double
    public var currentPath: String
    public var stage: Stage = .files
}
