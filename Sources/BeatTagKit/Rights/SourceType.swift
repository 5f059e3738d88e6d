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

    /// Creative Commons licences that ask for credit wherever the work is shared.
    public var requiresAttribution: Bool { [.ccBy, .ccBySa, .ccByNd, .ccByNc, .ccByNcSa, .ccByNcNd].contains(self) }

    /// The kind as people name it ("CC BY-SA", "your own music").
    public var title: String {
        switch self {
        case .userOwned: return "your own music"
        case .cc0: return "CC0"
        case .publicDomain: return "public domain"
        case .ccBy: return "CC BY"
        case .ccBySa: return "CC BY-SA"
        case .ccByNd: return "CC BY-ND"
        case .ccByNc: return "CC BY-NC"
        case .ccByNcSa: return "CC BY-NC-SA"
        case .ccByNcNd: return "CC BY-NC-ND"
        case .other: return "other licence"
        case .unknown: return "rights unknown"
        }
    }

    /// No-derivatives licences forbid changing the work, tempo included.
    public var allowsTempoAdjustment: Bool { self != .ccByNd && self != .ccByNcNd }
}
