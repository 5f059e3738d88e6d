/// A file the walk found, with the rights its folder declares.
public struct FoundFile: Sendable {
    public var path: String
    public var size: Int64
    public var modifiedAt: Double
    public var sidecar: RightsSidecar?
}
