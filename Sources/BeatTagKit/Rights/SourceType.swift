/// Who may do what with a track: the licence family decides whether tempo adjustment is allowed.
public enum SourceType: String, CaseIterable, Codable, Sendable {
    case userOwned = "user-owned"
    case cc0
    case publicDomain = "public-domain"
    case ccBy = "cc-by"
    case ccBySa = "cc-by-sa"
    case ccByNd = "cc-by-nd"
    case ccByNc = "cc-by-nc"
    case ccByNcSa = "cc-by-nc-sa"
    case ccByNcNd = "cc-by-nc-nd"
    case other
    case unknown

    /// No-derivatives licences forbid changing the work, tempo included.
    public var allowsTempoAdjustment: Bool { self != .ccByNd && self != .ccByNcNd }
}
