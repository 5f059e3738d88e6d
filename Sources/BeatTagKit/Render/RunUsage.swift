/// What a run has played so far, across its segments: which songs, how far into each one's beat
/// list, and which song played last (a fill never puts a song right after itself).
public struct RunUsage: Sendable {
    /// Song key (`SongIdentity`) → the last beat index of its beat list played.
    private var playedThroughBeat: [String: Int] = [:]
    public private(set) var lastSong: String?

    public init() {}

    public func hasPlayed(_ track: TrackRecord) -> Bool { playedThroughBeat[SongIdentity.key(for: track)] != nil }

    /// The beat index after which the song has not been played (nil: not played).
    public func playedThrough(_ track: TrackRecord) -> Int? { playedThroughBeat[SongIdentity.key(for: track)] }

    mutating func record(_ entry: RunPlan.Entry) {
        let key = SongIdentity.key(for: entry.track)
        let end = entry.firstBeatIndex + entry.sourceBeats.count - 1
        playedThroughBeat[key] = max(playedThroughBeat[key] ?? end, end)
        lastSong = key
    }
}
