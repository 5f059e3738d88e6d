import BeatTagKit

/// A track as the review page and `/api/` scripts see it (docs/review.md).
struct ReviewTrack: Encodable {
    var id: Int64
    var path: String
    var title: String
    var artist: String?
    var album: String?
    var bpm: Double?
    var bpmSource: String?
    var confidence: Double?
    var alternativeBPM: Double?
    var reason: String?
    var rating: String?
    var state: String
    var license: String?
    /// The rights family (`cc0`, `cc-by-nd`, `user-owned`, …).
    var rights: String
    var tempoAdjustAllowed: Bool
    var durationSeconds: Double?
    var format: String?
    /// With `GET /api/tracks/{id}` only: the beat list at the BPM in use, seconds.
    var beats: [Double]?
    /// Where Play starts: a bar line about a third of the way in, past most intros.
    var playFrom: Double?
    /// Beats per bar on the overview (the render counts phrases in fours too).
    var beatsPerBar: Int?
    /// A beat placed by hand (seconds): `beats` were moved onto it.
    var beatAnchor: Double?
    /// The analysis moved the tracker's beats half a beat (`TrackRecord.phaseMoved`).
    var phaseMoved: Bool?
    /// With `GET /api/tracks/{id}` only: whether the track is in the queue now (with `reason`, why).
    /// A page holding an older queue learns that it was settled since, here or on another copy.
    var queued: Bool?

    init(_ track: TrackRecord, reason: UntaggedQueue.Reason? = nil, withBeats: Bool = false) {
        id = track.id ?? 0
        path = track.path
        title = track.title ?? track.displayName(withExtension: false)  // the file name without a title tag
        artist = track.artist
        album = track.album
        bpm = track.bpm.map { Rounding.decimals($0, 2) }
        bpmSource = track.bpmSource?.rawValue
        confidence = track.confidence.map { Rounding.decimals($0, 3) }
        alternativeBPM = track.bpmAlternative.map { Rounding.decimals($0, 2) }
        self.reason = reason?.rawValue
        rating = track.rating?.rawValue
        state = track.state.rawValue
        license = track.license
        rights = track.sourceType.rawValue
        tempoAdjustAllowed = track.tempoAdjustAllowed
        durationSeconds = track.durationSeconds
        format = track.format
        beatAnchor = track.beatAnchor.map { Rounding.decimals($0, 4) }
        phaseMoved = track.phaseMoved
        if withBeats {
            let beats = track.beatsInUse
            self.beats = beats.map { Rounding.decimals($0, 4) }
            beatsPerBar = 4
            playFrom = Self.playFrom(beats: beats)
        }
    }

    static func playFrom(beats: [Double]) -> Double {
        guard beats.count >= 8 else { return 0 }
        let bar = (beats.count / 3) / 4 * 4
        return beats[min(bar, beats.count - 1)]
    }
}
