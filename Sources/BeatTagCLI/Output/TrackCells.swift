import BeatTagKit

/// Cells every table prints the same way.
enum TrackCells {
    /// The confidence of the BPM in use: "hand" for a hand-set BPM (the analysis no longer speaks
    /// for it), "tag" for a tag's, else the analysis's, truncated, not rounded, so that 0.797 never
    /// prints as "0.80" beside the "below 0.8" that marks doubt.
    static func confidence(_ t: TrackRecord) -> String {
        switch t.bpmSource {
        case .manual?: return "hand"
        case .tag?: return "tag"
        default: return t.confidence.map { String(format: "%.2f", ($0 * 100 + 1e-9).rounded(.down) / 100) } ?? "-"
        }
    }

    /// "♥" liked, "✗" disliked, "" neither.
    static func rating(_ t: TrackRecord) -> String {
        switch t.rating {
        case .liked?: return "♥"
        case .disliked?: return "✗"
        case nil: return ""
        }
    }
}
