import Foundation

/// Fills a running time with cadence matches: no song twice, artists spread out, recently
/// exported tracks avoided on request, the same seed giving the same playlist.
public struct PlaylistBuilder {
    public var targetSeconds: Double
    public var seed: UInt64
    /// Track ids to avoid (recently exported), used only when nothing else fills the time.
    public var avoid: Set<Int64> = []
    /// Why a picked track's file cannot go into the playlist (`TrackRecord.fileProblemSinceScan`
    /// in the commands), nil when it can: such a track is left out and another drawn.
    public var unusableFile: (TrackRecord) -> String? = { _ in nil }
    /// The other copies of a match's recording that fit (`Catalog.otherCopies`), asked for only
    /// when every copy of a drawn song the ranking holds is unusable.
    public var otherCopies: (CadenceMatch) -> [CadenceMatch] = { _ in [] }

    public init(targetSeconds: Double, seed: UInt64) {
        self.targetSeconds = targetSeconds
        self.seed = seed
    }

    public struct Playlist: Sendable {
        public var entries: [CadenceMatch]
        public var seconds: Double
        /// Recently exported tracks that had to be used to fill the time.
        public var reused: Int
        /// Tracks drawn whose files could not be used, and why.
        public var leftOut: [RunPlan.LeftOut] = []
    }

    public func build(from ranked: [CadenceMatch]) -> Playlist {
        var rng = SplitMix64(seed: seed)
        // Unique songs, in ranked order; each keeps its copies, best first, so that a best copy
        // gone since the scan gives way to the next (it dropped the song).
        var songIndex: [String: Int] = [:]
        var songs: [[CadenceMatch]] = []
        for match in ranked where (match.track.durationSeconds ?? 0) > 0 {
            let key = SongIdentity.key(for: match.track)
            if let i = songIndex[key] { songs[i].append(match) } else {
                songIndex[key] = songs.count
                songs.append([match])
            }
        }
        func exported(_ copies: [CadenceMatch]) -> Bool { copies.contains { avoid.contains($0.track.id ?? -1) } }
        let fresh = songs.filter { !exported($0) }
        let stale = songs.filter(exported)

        // Draw without replacement, favouring better-ranked songs (weight 1 / (1 + rank / 4)).
        var chosen: [CadenceMatch] = []
        var total = 0.0
        var reused = 0
        var leftOut: [RunPlan.LeftOut] = []
        for (pool, isStale) in [(fresh, false), (stale, true)] {
            var remaining = pool
            while total < targetSeconds, !remaining.isEmpty {
                let weights = remaining.indices.map { 1 / (1 + Double($0) / 4) }
                var pick = rng.pick(weights: weights)
                // The song that reaches the time: the shortest that still does, so that a playlist
                // overshoots by as little as the library allows (20 min was 23:07).
                let needed = targetSeconds - total
                func seconds(_ i: Int) -> Double { remaining[i][0].track.durationSeconds ?? 0 }
                if seconds(pick) > needed,
                   let closer = remaining.indices.filter({ seconds($0) >= needed && seconds($0) < seconds(pick) }).min(by: { seconds($0) < seconds($1) }) {
                    pick = closer
                }
                let copies = remaining.remove(at: pick)
                // Each file looked at once; the ones gone are named.
                var tried = Set<String>()
                func firstUsable(_ list: [CadenceMatch]) -> CadenceMatch? {
                    for copy in list where tried.insert(copy.track.path).inserted {
                        guard let reason = unusableFile(copy.track) else { return copy }
                        leftOut.append(RunPlan.LeftOut(path: copy.track.path, reason: reason, needsRescan: true))
                    }
                    return nil
                }
                // The ranking's copies of the song, then (all gone) the recordings' other copies.
                guard let match = firstUsable(copies) ?? firstUsable(copies.flatMap(otherCopies)) else { continue }
                chosen.append(match)
                total += match.track.durationSeconds ?? 0
                if isStale { reused += 1 }
            }
        }
        return Playlist(entries: PlaylistBuilder.spreadArtists(chosen), seconds: total, reused: reused, leftOut: leftOut)
    }

    /// Greedy order: the next track is the first whose artist differs from the last two, when one
    /// exists, unless one artist holds more than half of what is left: then that artist goes now,
    /// or its tracks would end up side by side (Golf, Kw, Golf, not Kw, Golf, Golf).
    /// `after`: the artists (`artistKey`) just played before these tracks.
    static func spreadArtists(_ tracks: [CadenceMatch], after: [String] = []) -> [CadenceMatch] {
        var pending = tracks
        var ordered: [CadenceMatch] = []
        var played = after
        while !pending.isEmpty {
            let recent = Array(played.suffix(2))
            let keys = pending.map(artistKey)
            let counts = keys.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            let crowding = keys.firstIndex { counts[$0]! > pending.count / 2 && $0 != recent.last }
            let index = crowding ?? pending.firstIndex { !recent.contains(artistKey($0)) }
                ?? pending.firstIndex { artistKey($0) != recent.last } ?? 0
            let next = pending.remove(at: index)
            ordered.append(next)
            played.append(artistKey(next))
        }
        return ordered
    }

    /// Without an artist tag nothing says two tracks share an artist: each counts as its own.
    static func artistKey(_ m: CadenceMatch) -> String {
        m.track.artist.map(SongIdentity.primaryArtist).flatMap { $0.isEmpty ? nil : $0 } ?? "\u{0}" + m.track.path
    }
}
