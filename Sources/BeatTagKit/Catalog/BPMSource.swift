import GRDB

/// Where the BPM in use came from.
public enum BPMSource: String, Codable, Sendable, DatabaseValueConvertible {
    case manual, analysis, tag
}
