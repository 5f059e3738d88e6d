import Foundation
import GRDB

/// What a person entered for one file: a hand BPM, a like or dislike, a hand-placed beat. Kept
/// through scans, and set aside and given back together.
public struct HandData: Codable, Equatable, Sendable {
    public var bpmManual: Double?
    public var rating: TrackRating?
    public var beatAnchor: Double?

    public init(bpmManual: Double? = nil, rating: TrackRating? = nil, beatAnchor: Double? = nil) {
        (self.bpmManual, self.rating, self.beatAnchor) = (bpmManual, rating, beatAnchor)
    }

    init(of record: TrackRecord) {
        self.init(bpmManual: record.bpmManual, rating: record.rating, beatAnchor: record.beatAnchor)
    }

    /// A row holding `bpmManual`, `rating` and `beatAnchor`.
    init(row: Row) {
        // Read as text: a value this build does not know is no rating, not a crash.
        self.init(bpmManual: row["bpmManual"], rating: (row["rating"] as String?).flatMap(TrackRating.init(rawValue:)),
                  beatAnchor: row["beatAnchor"])
    }

    public var isEmpty: Bool { bpmManual == nil && rating == nil && beatAnchor == nil }

    func apply(to record: inout TrackRecord) {
        (record.bpmManual, record.rating, record.beatAnchor) = (bpmManual, rating, beatAnchor)
    }

    /// "hand BPM 121, like and hand-placed beat", for the scan's report.
    public var what: String {
        let parts = [bpmManual.map { String(format: "hand BPM %g", $0) }, rating.map { $0 == .liked ? "like" : "dislike" },
                     beatAnchor.map { _ in "hand-placed beat" }].compactMap { $0 }
        return parts.count <= 1 ? parts.joined() : parts.dropLast().joined(separator: ", ") + " and " + parts.last!
    }
}

/// Hand data entered for a recording whose file was replaced by another recording under the same
/// name (names swapped, tracks renumbered, another song saved over it). It stays with the
/// recording, keyed by its decoded audio, and the next scan that finds that audio in a file
/// without hand data of its own gives it back.
public struct HandDataAside: Codable, Equatable, Sendable {
    public var audioHash: String
    public var hand: HandData
    /// Where the recording was when its hand data was set aside.
    public var formerPath: String

    /// A row holding `audioHash`, `formerPath` and the hand data's columns.
    init(row: Row) {
        (audioHash, hand, formerPath) = (row["audioHash"], HandData(row: row), row["formerPath"])
    }

    init(audioHash: String, hand: HandData, formerPath: String) {
        (self.audioHash, self.hand, self.formerPath) = (audioHash, hand, formerPath)
    }

    static func insert(_ hand: HandData, audioHash: String, formerPath: String, db: Database) throws -> HandDataAside? {
        guard !hand.isEmpty else { return nil }
        try db.execute(sql: """
            INSERT INTO handDataAside (audioHash, bpmManual, rating, beatAnchor, formerPath, setAsideAt) VALUES (?, ?, ?, ?, ?, ?)
            """, arguments: [audioHash, hand.bpmManual, hand.rating, hand.beatAnchor, formerPath, Date().timeIntervalSince1970])
        return HandDataAside(audioHash: audioHash, hand: hand, formerPath: formerPath)
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
    public var beatAnchor: Double?

    init(_ kind: Kind, path: String, _ aside: HandDataAside) {
        (self.kind, self.path, formerPath) = (kind, path, aside.formerPath)
        (bpmManual, rating, beatAnchor) = (aside.hand.bpmManual, aside.hand.rating, aside.hand.beatAnchor)
    }

    public var what: String { HandData(bpmManual: bpmManual, rating: rating, beatAnchor: beatAnchor).what }
}

extension Catalog {
    /// Gives set-aside hand data back to present tracks that hold its audio and have none of their
    /// own: the newest first, each entry to one track and each track one entry.
    func giveBackHandDataAside() throws -> [HandDataMove] {
        var moves: [HandDataMove] = []
        try writeImmediately { db in
            let pairs = try Row.fetchAll(db, sql: """
                SELECT a.id AS asideID, a.audioHash, a.bpmManual, a.rating, a.beatAnchor, a.formerPath, t.id AS trackID
                FROM handDataAside a JOIN track t ON t.audioHash = a.audioHash
                WHERE t.state != 'missing' AND t.bpmManual IS NULL AND t.rating IS NULL AND t.beatAnchor IS NULL
                ORDER BY a.setAsideAt DESC, a.id DESC, t.id
                """)
            var givenAsides = Set<Int64>(), givenTracks = Set<Int64>()
            for pair in pairs {
                let asideID: Int64 = pair["asideID"], trackID: Int64 = pair["trackID"]
                guard !givenAsides.contains(asideID), !givenTracks.contains(trackID),
                      var record = try TrackRecord.fetchOne(db, key: trackID) else { continue }
                let aside = HandDataAside(row: pair)
                aside.hand.apply(to: &record)
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
            try Row.fetchAll(db, sql: "SELECT audioHash, bpmManual, rating, beatAnchor, formerPath FROM handDataAside ORDER BY setAsideAt, id")
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
