import Foundation

public enum CadenceMatcher {
    public enum Rejection: String, CaseIterable, Codable, Sendable {
        case noBPM = "no BPM"
        case tooFar = "tempo change beyond the limit"
        case rightsForbidChange = "rights forbid tempo change"
        case missing = "file missing"
        case unplayable = "not playable audio"
        case filtered = "filtered out"
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
        for track in tracks {
            if track.state == .missing { rejected[.missing, default: 0] += 1; continue }
            if !track.isPlayable { rejected[.unplayable, default: 0] += 1; continue }
            if let reason = filter.rejection(of: track) {
                rejected[.filtered, default: 0] += 1
                filtered[reason, default: 0] += 1
                continue
            }
            guard let bpm = track.bpm, bpm > 0 else { rejected[.noBPM, default: 0] += 1; continue }
            var best: CadenceMatch?
            var forbidden = false
            for stepsPerBeat in rules.allowHalfTime ? [1, 2] : [1] {
                let ratio = rules.spm / (bpm * Double(stepsPerBeat))
                let shift = (ratio - 1) * 100
                // A hair of tolerance: 175 / 159.1 is +9.99…%, inside ±10%.
                guard abs(shift) <= rules.maxShiftPercent + 1e-9 else { continue }
                if !track.tempoAdjustAllowed, abs(shift) > rules.untouchableTolerancePercent + 1e-9 {
                    forbidden = true
                    continue
                }
                let candidate = CadenceMatch(track: track, bpm: bpm, stepsPerBeat: stepsPerBeat, ratio: ratio,
                                             shiftPercent: shift, adjustedBPM: bpm * ratio)
                if best == nil || abs(candidate.shiftPercent) < abs(best!.shiftPercent) { best = candidate }
            }
            if let best {
                matches.append(best)
            } else if forbidden {
                rejected[.rightsForbidChange, default: 0] += 1
            } else {
                rejected[.tooFar, default: 0] += 1
                nearMisses.append(bpm)
            }
        }
        matches.sort(by: rankedBefore)
        let nearest = nearMisses.sorted { abs($0 - rules.spm) < abs($1 - rules.spm) }
        return Result(matches: matches, rejected: rejected, filtered: filtered, nearest: Array(nearest.prefix(5)))
    }

    /// Smallest change first, then one step per beat before half-time, then the beat we trust most,
    /// then steady before variable.
    static func rankedBefore(_ a: CadenceMatch, _ b: CadenceMatch) -> Bool {
        let da = abs(a.shiftPercent), db = abs(b.shiftPercent)
        if abs(da - db) > 1e-9 { return da < db }
        if a.stepsPerBeat != b.stepsPerBeat { return a.stepsPerBeat < b.stepsPerBeat }
        let ca = a.track.bpmSource == .manual ? 1 : (a.track.confidence ?? 0)
        let cb = b.track.bpmSource == .manual ? 1 : (b.track.confidence ?? 0)
        if ca != cb { return ca > cb }
        let va = a.track.tempoVariable ?? false, vb = b.track.tempoVariable ?? false
        if va != vb { return !va }
        return a.track.path < b.track.path
    }
}
