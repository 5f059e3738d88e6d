/// A runner's verdict on a track: liked tracks come first among equal matches, disliked ones never
/// appear in match, playlist or workout. Hand data: kept through rescans, moves and retags.
public enum TrackRating: String, Codable, Sendable, CaseIterable {
    case liked, disliked
}

public enum Rating {
    /// Sets (or with nil clears) the rating of a catalogued file.
    public static func set(_ rating: TrackRating?, for path: String, in catalog: Catalog) throws -> TrackRecord {
        try catalog.editHandData(path: try catalog.locate(path)) { $0.rating = rating }
    }
}
