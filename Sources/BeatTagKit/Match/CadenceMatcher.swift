import Foundation

public enum CadenceMatcher {
    public enum Rejection: String, CaseIterable, Codable, Sendable {
        case noBPM = "no BPM"
        case tooFar = "tempo change beyond the limit"
        case rightsForbidChange = "rights forbid tempo change"
        case missing = "file missing"
        case unplayable = "not playable audio"
        case filtered = "filtered out"
        case duplicate = "another copy of a listed recording"
        case disliked = "disliked"
    }

    public struct Result: Sendable {
        public var matches: [CadenceMatch]
        public var rejected: [Rejection: Int]
        public var filtered: [MatchFilter.Reason: Int]
        /// Usable BPMs closest to the cadence among tracks rejected only for tempo: what the library has nearby.
        public var nearest: [Double]
    }

    public static func match(_ tracks: [TrackRecord], rules: CadenceRules, filter: MatchFilter = MatchFilter()) -> Result {
        var matches: [CadenceMatch] = []
        var rejected: [Rejection: Int] = [:]
        var filtered: [MatchFilter.Reason: Int] = [:]
        var nearMisses: [Double] = []
        let filter = filter.folded()
        for track in tracks {
            if track.state == .missing { rejected[.missing, default: 0] += 1; continue }
            if !track.isPlayable { rejected[.unplayable, default: 0] += 1; continue }
            if track.rating == .disliked { rejected[.disliked, default: 0] += 1; continue }
            if let reason = filter.rejection(of: track) {
                rejected[.filtered, default: 0] += 1
                filtered[reason, default: 0] += 1
                continue
            }
            guard let inUse = track.bpm, inUse > 0 else { rejected[.noBPM, default: 0] += 1; continue }
            // A track fits by the tempo its beats run at, which the render stretches: a tapped BPM a
            // little off them (171 on beats at 170.0) offered music played at its own tempo at 171,
            // where the render could not use it, and let a stretch pass `--max-shift` by the tap
            // that the render then made larger.
            let bpm = track.beatsBPM ?? inUse
            switch rules.fit(bpm: bpm, tempoAdjustAllowed: track.tempoAdjustAllowed) {
            case let .fits(stepsPerBeat, ratio, shift):
                matches.append(CadenceMatch(track: track, bpm: bpm, stepsPerBeat: stepsPerBeat, ratio: ratio,
                                            shiftPercent: shift, adjustedBPM: bpm * ratio))
            case .rightsForbidChange:
                rejected[.rightsForbidChange, default: 0] += 1
            case .tooFar:
                rejected[.tooFar, default: 0] += 1
                nearMisses.append(bpm)
            }
        }
        matches.sort(by: rankedBefore)
        // One recording counts once, wherever its best-ranked copy ranks; the copy offered is the
        // better source (lossless first, then the higher bit rate).
        var best: [String: CadenceMatch] = [:]
        for match in matches {
            let key = match.track.contentIdentity
            if let kept = best[key] {
                rejected[.duplicate, default: 0] += 1
                if match.track.sourceQuality > kept.track.sourceQuality { best[key] = match }
            } else {
                best[key] = match
            }
        }
        var seen = Set<String>()
        matches = matches.compactMap { match in
            let key = match.track.contentIdentity
            return seen.insert(key).inserted ? best[key] : nil
        }
        let nearest = nearMisses.sorted { abs($0 - rules.spm) < abs($1 - rules.spm) }
        return Result(matches: matches, rejected: rejected, filtered: filtered, nearest: Array(nearest.prefix(5)))
    }

    /// Smallest change first (a liked track first among changes in the same whole percent), then
    /// one step per beat before half-time, then the beat we trust most, then steady before variable.
    static func rankedBefore(_ a: CadenceMatch, _ b: CadenceMatch) -> Bool {
        let da = abs(a.shiftPercent), db = abs(b.shiftPercent)
        let ba = likedBand(da), bb = likedBand(db)
        if ba != bb { return ba < bb }
        let la = a.track.rating == .liked, lb = b.track.rating == .liked
        if la != lb { return la }
        if abs(da - db) > 1e-9 { return da < db }
        if a.stepsPerBeat != b.stepsPerBeat { return a.stepsPerBeat < b.stepsPerBeat }
        let ca = a.track.bpmSource == .manual ? 1 : (a.track.confidence ?? 0)
        let cb = b.track.bpmSource == .manual ? 1 : (b.track.confidence ?? 0)
        if ca != cb { return ca > cb }
        let va = a.track.tempoVariable ?? false, vb = b.track.tempoVariable ?? false
        if va != vb { return !va }
        return a.track.path < b.track.path
    }

    /// The whole-percent band of a change: changes in one band count as equal for a liked track.
    static func likedBand(_ absoluteShiftPercent: Double) -> Double { (absoluteShiftPercent + 1e-9).rounded(.down) }
}
