import Foundation

/// One track that can be played at the runner's cadence, 1:1 (one step per beat).
public struct CadenceMatch: Codable, Equatable, Sendable {
    public var track: TrackRecord
    public var bpm: Double
    /// spm / bpm: the playback-rate factor that puts the beat on the step.
    public var ratio: Double
    /// Signed percentage change of tempo: (ratio - 1) × 100.
    public var shiftPercent: Double
    public var adjustedBPM: Double
}

public struct CadenceRules: Sendable {
    public static let cadenceRange = 100.0...240.0
    public var spm: Double
    /// Largest tempo change allowed, percent.
    public var maxShiftPercent = 10.0
    /// Tracks whose rights forbid tempo adjustment must already be this close, percent.
    public var untouchableTolerancePercent = 1.0

    public init(spm: Double, maxShiftPercent: Double = 10) {
        self.spm = spm
        self.maxShiftPercent = maxShiftPercent
    }
}

public enum CadenceMatcher {
    public enum Rejection: String, CaseIterable, Sendable {
        case noBPM = "no BPM"
        case tooFar = "tempo change beyond the limit"
        case rightsForbidChange = "rights forbid tempo change"
        case missing = "file missing"
    }

    public static func match(_ tracks: [TrackRecord], rules: CadenceRules) -> (matches: [CadenceMatch], rejected: [Rejection: Int]) {
        var matches: [CadenceMatch] = []
        var rejected: [Rejection: Int] = [:]
        for track in tracks {
            if track.state == .missing { rejected[.missing, default: 0] += 1; continue }
            guard let bpm = track.bpm, bpm > 0 else { rejected[.noBPM, default: 0] += 1; continue }
            let ratio = rules.spm / bpm
            let shift = (ratio - 1) * 100
            // Compare with a hair of tolerance: 159.1 → 175 is +9.99…%, inside ±10%.
            guard abs(shift) <= rules.maxShiftPercent + 1e-9 else { rejected[.tooFar, default: 0] += 1; continue }
            if !track.tempoAdjustAllowed, abs(shift) > rules.untouchableTolerancePercent + 1e-9 {
                rejected[.rightsForbidChange, default: 0] += 1
                continue
            }
            matches.append(CadenceMatch(track: track, bpm: bpm, ratio: ratio, shiftPercent: shift, adjustedBPM: rules.spm))
        }
        // Smallest change first, then the beat we trust most, then steady before variable.
        matches.sort { a, b in
            let da = abs(a.shiftPercent), db = abs(b.shiftPercent)
            if abs(da - db) > 1e-9 { return da < db }
            let ca = a.track.confidence ?? 0, cb = b.track.confidence ?? 0
            if ca != cb { return ca > cb }
            let va = a.track.tempoVariable ?? false, vb = b.track.tempoVariable ?? false
            if va != vb { return !va }
            return a.track.path < b.track.path
        }
        return (matches, rejected)
    }
}
