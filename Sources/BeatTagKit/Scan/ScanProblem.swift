/// Something the walk could not read, or a root it found unavailable, with a one-line message.
public struct ScanProblem: Codable, Equatable, Sendable {
    public var path: String
    public var message: String

    /// What the walk says of a root that is not there.
    public static let noSuchFileOrFolder = "no such file or folder"
}
