import Foundation
import GRDB

/// Hand data (a hand BPM, a like or dislike) entered for a recording whose file was replaced by
/// another recording under the same name (names swapped, tracks renumbered, another song saved
/// over it). It stays with the recording, keyed by its decoded audio, and the next scan that finds
/// that audio in a file without hand data of its own gives it back.
public struct HandDataAside: Codable, Equatable, Sendable {
    public var audioHash: String
    public var bpmManual: Double?
    public var rating: TrackRating?
    /// Where the recording was when its hand data was set aside.
    public var formerPath: String

    init(audioHash: String, bpmManual: Double?, rating: TrackRating?, formerPath: String) {
        (self.audioHash, self.bpmManual, self.rating, self.formerPath) = (audioHash, bpmManual, rating, formerPath)
    }

    /// A row holding `audioHash`, `bpmManual`, `rating` and `formerPath`.
    init(row: Row) {
        // Read as text: a value this build does not know is no rating, not a crash.
        self.init(audioHash: row["audioHash"], bpmManual: row["bpmManual"],
                  rating: (row["rating"] as String?).flatMap(TrackRating.init(rawValue:)), formerPath: row["formerPath"])
    }

    static func insert(bpmManual: Double?, rating: TrackRating?, audioHash: String, formerPath: String,
                       db: Database) throws -> HandDataAside? {
        guard bpmManual != nil || rating != nil else { return nil }
        try db.execute(sql: """
            INSERT INTO handDataAside (audioHash, bpmManual, rating, formerPath, setAsideAt) VALUES (?, ?, ?, ?, ?)
            """, arguments: [audioHash, bpmManual, rating, formerPath, Date().timeIntervalSince1970])
        return HandDataAside(audioHash: audioHash, bpmManual: bpmManual, rating: rating, formerPath: formerPath)
    }
}

/// Hand data a scan moved because a file's name now holds another recording: set aside from the
/// file at `path`, or given back to it.
public struct HandDataMove: Codable, Equatable, Sendable {
    public enum Kind: String, Codable, Sendable {
        case setAside = "set-aside", givenBack = "given-back"
    }
    public var kind: Kind
    public var path: String
    public var formerPath: String
    public var bpmManual: Double?
    public var rating: TrackRating?

    init(_ kind: Kind, path: String, _ aside: HandDataAside) {
        (self.kind, self.path, formerPath, bpmManual, rating) = (kind, path, aside.formerPath, aside.bpmManual, aside.rating)
    }

    /// "hand BPM 121 and like", for the scan's report.
    public var what: String {
        let bpm = bpmManual.map { String(format: "hand BPM %g", $0) }
        let rated = rating.map { $0 == .liked ? "like" : "dislike" }
        return [bpm, rated].compactMap { $0 }.joined(separator: " and ")
    }
}

extension Catalog {
    /// Gives set-aside hand data back to present tracks that hold its audio and have none of their
    /// own: the newest first, each entry to one track and each track one entry.
    func giveBackHandDataAside() throws -> [HandDataMove] {
        var moves: [HandDataMove] = []
        try writeImmediately { db in
            let pairs = try Row.fetchAll(db, sql: """
                SELECT a.id AS asideID, a.audioHash, a.bpmManual, a.rating, a.formerPath, t.id AS trackID
                FROM handDataAside a JOIN track t ON t.audioHash = a.audioHash
                WHERE t.state != 'missing' AND t.bpmManual IS NULL AND t.rating IS NULL
                ORDER BY a.setAsideAt DESC, a.id DESC, t.id
                """)
            var givenAsides = Set<Int64>(), givenTracks = Set<Int64>()
            for pair in pairs {
                let asideID: Int64 = pair["asideID"], trackID: Int64 = pair["trackID"]
                guard !givenAsides.contains(asideID), !givenTracks.contains(trackID),
                      var record = try TrackRecord.fetchOne(db, key: trackID) else { continue }
                let aside = HandDataAside(row: pair)
                (record.bpmManual, record.rating) = (aside.bpmManual, aside.rating)
                record.chooseBPM()
                try Catalog.writeHandColumns(of: record, db)
                try db.execute(sql: "DELETE FROM handDataAside WHERE id = ?", arguments: [asideID])
                givenAsides.insert(asideID)
                givenTracks.insert(trackID)
                moves.append(HandDataMove(.givenBack, path: record.path, aside))
            }
        }
        return moves
    }

    /// Hand data waiting for its recording to turn up again.
    public func handDataAside() throws -> [HandDataAside] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT audioHash, bpmManual, rating, formerPath FROM handDataAside ORDER BY setAsideAt, id")
                .map(HandDataAside.init(row:))
        }
    }

    /// The acoustic print stored for track `id`, if it has one.
    func recordingPrint(ofTrack id: Int64) throws -> RecordingPrint? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT print, hash FROM trackPrint WHERE trackId = ?", arguments: [id]).map {
                RecordingPrint(data: $0["print"], storedHash: $0["hash"])
            }
        }
    }
}
