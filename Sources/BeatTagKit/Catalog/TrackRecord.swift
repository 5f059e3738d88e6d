import Foundation
import GRDB

extension SourceType: DatabaseValueConvertible {}
extension TrackRating: DatabaseValueConvertible {}

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
    /// Beat times, little-endian Float32 seconds. Kept in their own table (`trackBeats`): loaded
    /// only when asked for (most reads need none, and inline they made every row a page).
    public var beats: Data? = nil

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
    /// Hash of the decoded audio (the first minute): the same song after a retag or move.
    public var audioHash: String?
    /// The scan root the file was found under: `list` and `match` show folders relative to it.
    public var libraryRoot: String?
    /// The library and version whose samples the analysis saw (`DecoderLibrary.identity`), nil
    /// when nothing decoded: a beat grid holds only for audio decoded the same way.
    public var decoder: String?
    /// The library of `decoder`: what plays or measures the track's audio opens it with, so that
    /// its beats fall where the analysis found them (`AudioSources.open`).
    public var decoderLibrary: DecoderLibrary? { decoder.flatMap(DecoderLibrary.init(identity:)) }
    /// Liked or disliked by hand (`beattag rate`); hand data, never changed by a scan.
    public var rating: TrackRating?
    /// The recording this file is a copy of (the id of the group's first track), when another
    /// file in the catalog holds the same recording in another encoding (`RecordingPrint`).
    public var recording: Int64?
    /// A beat placed by hand (seconds of the decoded file): the grid in use is moved so that a beat
    /// falls there (`BeatAnchor`). Hand data, never changed by a scan.
    public var beatAnchor: Double?
    /// The analysis moved the tracker's beats half a beat (`PhaseDecision.halfBeat`): on real
    /// recordings such a grid is more often off the beat than one left as tracked, so the review
    /// queue lists it. Nil for rows analysed before version 48.
    public var phaseMoved: Bool?
    /// The acoustic fingerprint the scan just made: stored in `trackPrint`, never loaded with rows.
    public var recordingPrint: RecordingPrint? = nil

    /// The `track` table's columns: every stored property but `beats` and `recordingPrint`.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, path, fileSize, modifiedAt, fingerprint, state, format, durationSeconds, sampleRate, channels, bitrateKbps
        case title, artist, album, genre, year, trackNumber
        case bpmTag, bpmAnalysed, bpmManual, bpm, bpmSource, bpmReason, confidence, bpmAlternative, bpmAlternativeScore, bpmScore
        case gridOffset, gridPeriod, tempoSteadiness, tempoVariable, tempoMin, tempoMax
        case sourceType, license, attribution, sourceURL, tempoAdjustAllowed, rightsOrigin
        case waveformAnalysed, metadataOnlyReason, analysisVersion, lastError, decodeWarning, firstSeenAt, scannedAt, missingSince
        case audioHash, libraryRoot, decoder, rating, recording, beatAnchor, phaseMoved
    }

    /// The names of the `track` table's columns, the keys of a record's JSON.
    public static var columnNames: [String] { CodingKeys.allCases.map(\.rawValue) }

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

    /// The same recording, whatever its path: copies in other encodings (`recording`, found by
    /// acoustic fingerprint) and byte-identical or retagged copies (the decoded audio's hash) share
    /// it, so they count once in matches, playlists, workouts and runs.
    public var contentIdentity: String {
        Self.contentIdentity(recording: recording, audioHash: audioHash, fingerprint: fingerprint, id: id, path: path)
    }

    /// `contentIdentity` from the columns that make it, for a row read without the rest (`stats`).
    static func contentIdentity(recording: Int64?, audioHash: String?, fingerprint: String?, id: Int64?, path: String) -> String {
        recording.map { "r:\($0)" } ?? audioHash.map { "a:\($0)" } ?? fingerprint.map { "f:\($0)" } ?? id.map { "i:\($0)" } ?? "p:\(path)"
    }

    /// Formats that keep every sample.
    static let losslessFormats: Set<String> = ["flac", "wav", "aiff", "alac", "wavpack", "ape", "tta"]

    /// How good a source this file is among copies of one recording: lossless first, then the
    /// higher bit rate.
    public var sourceQuality: Int {
        (TrackRecord.losslessFormats.contains(format ?? "") ? 1_000_000 : 0) + (bitrateKbps ?? 0)
    }

    /// Audio a player can play: decoded here, or catalogued from the tags of a whole audio stream
    /// (metadata-only). A file that failed is not (empty, unreadable, not audio, or cut off too
    /// soon to analyse, whose tags still give a BPM and a length: a player stops a few seconds in),
    /// and gets neither a hand-set BPM nor a match.
    public var isPlayable: Bool {
        state != .failed || waveformAnalysed
    }

    /// The state the stored fields describe, for a row that comes back from `missing`.
    public var settledState: TrackState {
        if metadataOnlyReason != nil { return .metadataOnly }
        return lastError == nil && waveformAnalysed ? .analysed : .failed
    }

    /// What a search looks in (path, title, artist, album, genre), folded (`TextMatch`), joined by a
    /// character no search holds so a match never spans two fields. Stored in the `searchText`
    /// column by every scan write; `searchFieldsSQL` is the same join in SQL (a test keeps them equal).
    public var searchText: String {
        TextMatch.fold([Self.searchedPath(path, root: libraryRoot), title, artist, album, genre].map { $0 ?? "" }.joined(separator: "\u{1}"))
    }

    static let searchFieldsSQL = ["beattag_searched_path(path, libraryRoot)", "title", "artist", "album", "genre"]
        .map { "coalesce(\($0), '')" }.joined(separator: " || char(1) || ")

    /// The part of a path a search looks in: from the scanned folder's own name down (as `folder`
    /// shows it), not the folders above it: with the music in /home/rocky/Music, "rock" found every
    /// track. A file scanned by name (no root): its folder's name and its own.
    public static func searchedPath(_ path: String, root: String?) -> String {
        guard let root, root != "/", path.isInside(folder: root), path != root else {
            let folder = ((path as NSString).deletingLastPathComponent as NSString).lastPathComponent
            return folder.isEmpty || folder == "/" ? (path as NSString).lastPathComponent : folder + "/" + (path as NSString).lastPathComponent
        }
        let relative = path.dropFirst(root.count).drop { $0 == "/" }
        return (root as NSString).lastPathComponent + "/" + relative
    }

    public var beatTimes: [Double] {
        get { beats.map(BeatCoding.decode) ?? [] }
        set { beats = newValue.isEmpty ? nil : BeatCoding.encode(newValue) }
    }

    /// Same licence, attribution, permission and origin.
    public func sameRights(as other: TrackRecord) -> Bool {
        sourceType == other.sourceType && license == other.license && attribution == other.attribution
            && sourceURL == other.sourceURL && tempoAdjustAllowed == other.tempoAdjustAllowed && rightsOrigin == other.rightsOrigin
    }
}
