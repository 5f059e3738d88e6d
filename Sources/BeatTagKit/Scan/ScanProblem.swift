public struct ScanProblem: Codable, Equatable, Sendable {
    public var path: String
    public var message: String
}
