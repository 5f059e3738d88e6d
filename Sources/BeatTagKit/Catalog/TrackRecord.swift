import Foundation
import GRDB

/// Where the BPM in use came from.
public enum BPMSource: String, Codable, Sendable, DatabaseValueConvertible {
    case manual, analysis, tag
}

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

extension SourceType: DatabaseValueConvertible {}

/// One row of the `track` table: see catalog/schema.md for every column's meaning and origin.
public struct TrackRecord: Codable, Equatable, Sendable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "track"

    public var id: Int64?
    public var path: String
    public var fileSize: Int64
    public var modifiedAt: Double
    public var fingerprint: String?
    public var state: TrackState
    public var format: String?
    public var durationSeconds: Double?
    public var sampleRate: Int?
    public var channels: Int?
    public var bitrateKbps: Int?

    public var title: String?
    public var artist: String?
    public var album: String?
    public var genre: String?
    public var year: Int?
    public var trackNumber: Int?

    public var bpmTag: Double?
    public var bpmAnalysed: Double?
    public var bpmManual: Double?
    public var bpm: Double?
    public var bpmSource: BPMSource?
    public var bpmReason: String?
    public var confidence: Double?
    public var bpmAlternative: Double?
    public var bpmAlternativeScore: Double?
    public var bpmScore: Double?

    public var gridOffset: Double?
    public var gridPeriod: Double?
    public var tempoSteadiness: Double?
    public var tempoVariable: Bool?
    public var tempoMin: Double?
    public var tempoMax: Double?
    /// Beat times, little-endian Float32 seconds.
    public var beats: Data?

    public var sourceType: SourceType
    public var license: String?
    public var attribution: String?
    public var sourceURL: String?
    public var tempoAdjustAllowed: Bool
    public var rightsOrigin: String

    public var waveformAnalysed: Bool
    public var metadataOnlyReason: String?
    public var analysisVersion: Int?
    public var lastError: String?
    /// Analysed, but with a caveat (e.g. the file breaks off part-way).
    public var decodeWarning: String?
    public var firstSeenAt: Double
    public var scannedAt: Double
    public var missingSince: Double?

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    public init(path: String, fileSize: Int64, modifiedAt: Double, now: Double) {
        self.path = path
        self.fileSize = fileSize
        self.modifiedAt = modifiedAt
        state = .failed
        sourceType = .unknown
        tempoAdjustAllowed = true
        rightsOrigin = RightsOrigin.none.rawValue
        waveformAnalysed = false
        firstSeenAt = now
        scannedAt = now
    }

    /// The state the stored fields describe, for a row that comes back from `missing`.
    public var settledState: TrackState {
        if metadataOnlyReason != nil { return .metadataOnly }
        return lastError == nil && waveformAnalysed ? .analysed : .failed
    }

    public var beatTimes: [Double] {
        get { beats.map(BeatCoding.decode) ?? [] }
        set { beats = newValue.isEmpty ? nil : BeatCoding.encode(newValue) }
    }

    /// Manual beats tags beats analysis: the user has listened. Between tag and analysis, a confident
    /// analysis wins (it comes with a beat grid); a tag beats a doubtful one.
    public mutating func chooseBPM() {
        if let manual = bpmManual {
            (bpm, bpmSource, bpmReason) = (manual, .manual, "set by hand")
            return
        }
        let confident = (confidence ?? 0) >= BPMPolicy.confidentAnalysis
        switch (bpmAnalysed, bpmTag) {
        case let (analysed?, tag?):
            let ratio = analysed / tag
            if abs(ratio - 1) <= 0.04 {
                (bpm, bpmSource, bpmReason) = (analysed, .analysis, String(format: "analysis agrees with the BPM tag (%.1f)", tag))
            } else if confident {
                (bpm, bpmSource, bpmReason) = (analysed, .analysis,
                                                String(format: "analysis (confidence %.2f) overrides the BPM tag %.1f", confidence ?? 0, tag))
            } else {
                (bpm, bpmSource, bpmReason) = (tag, .tag,
                                                String(format: "BPM tag preferred: analysis (%.1f) has low confidence %.2f", analysed, confidence ?? 0))
            }
        case let (analysed?, nil):
            (bpm, bpmSource, bpmReason) = (analysed, .analysis, confident ? "analysis" : "analysis (low confidence)")
        case let (nil, tag?):
            (bpm, bpmSource, bpmReason) = (tag, .tag, waveformAnalysed ? "BPM tag" : "BPM tag (audio not analysed)")
        case (nil, nil):
            (bpm, bpmSource, bpmReason) = (nil, nil, nil)
        }
    }
}

public enum BPMPolicy {
    /// Analysis at or above this confidence is trusted over a disagreeing BPM tag.
    public static let confidentAnalysis = 0.5
}

/// Beat times as packed little-endian Float32: 4 bytes a beat, a 4-minute track in under 3 KB.
public enum BeatCoding {
    public static func encode(_ beats: [Double]) -> Data {
        var data = Data(capacity: beats.count * 4)
        for beat in beats {
            var bits = Float(beat).bitPattern.littleEndian
            withUnsafeBytes(of: &bits) { data.append(contentsOf: $0) }
        }
        return data
    }

    public static func decode(_ data: Data) -> [Double] {
        var beats: [Double] = []
        beats.reserveCapacity(data.count / 4)
        var index = data.startIndex
        while index + 4 <= data.endIndex {
            var bits: UInt32 = 0
            withUnsafeMutableBytes(of: &bits) { $0.copyBytes(from: data[index..<index + 4]) }
            beats.append(Double(Float(bitPattern: UInt32(littleEndian: bits))))
            index += 4
        }
        return beats
    }
}
