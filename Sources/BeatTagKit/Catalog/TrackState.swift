import GRDB

/// A track's place in the scan lifecycle.
public enum TrackState: String, Codable, Sendable, CaseIterable, DatabaseValueConvertible {
    /// Decoded and analysed.
    case analysed
    /// Tags read, audio not decodable here (AAC, ALAC, DRM, WMA): see `metadataOnlyReason`.
    case metadataOnly = "metadata-only"
    /// Neither decodable nor taggable, or analysis failed: see `lastError`.
    case failed
    /// Was catalogued, not found by the last complete scan of its folder. Kept: hand-entered data survives.
    case missing
}
