/// The 1:1 cadence rule: which tempo change a track may take to put its beat on the runner's step.
public struct CadenceRules: Sendable {
    public static let cadenceRange = TempoRanges.cadence
    public static let defaultMaxShiftPercent = 10.0
    public var spm: Double
    /// Largest tempo change allowed, percent.
    public var maxShiftPercent = CadenceRules.defaultMaxShiftPercent
    /// A track whose rights forbid tempo changes plays unchanged, so it must already be this close
    /// to the cadence (a share: 0.5%). The one value: `match`, playlists, workouts and the render.
    public static let unstretchedTolerance = 0.005
    /// Let a track serve at one beat every two steps (88 BPM at 176 SPM). Off by default.
    public var allowHalfTime = false

    public init(spm: Double, maxShiftPercent: Double = CadenceRules.defaultMaxShiftPercent, allowHalfTime: Bool = false) {
        self.spm = spm
        self.maxShiftPercent = maxShiftPercent
        self.allowHalfTime = allowHalfTime
    }

    /// How a track at `bpm` meets the rule.
    public enum Fit: Equatable, Sendable {
        /// Playable at the cadence: `stepsPerBeat` (1, or 2 at half-time), playback-rate factor `ratio`,
        /// signed change `shiftPercent`. The smallest change when both step counts fit.
        case fits(stepsPerBeat: Int, ratio: Double, shiftPercent: Double)
        case tooFar
        case rightsForbidChange
    }

    /// The one place the tempo rule is decided (matching, playlists and stats all ask here).
    public func fit(bpm: Double, tempoAdjustAllowed: Bool) -> Fit {
        var best: Fit?
        var forbidden = false
        for stepsPerBeat in stepCounts {
            let ratio = CadenceRules.ratio(spm: spm, bpm: bpm, stepsPerBeat: stepsPerBeat)
            let shift = (ratio - 1) * 100
            // A hair of tolerance: 175 / 159.1 is +9.99…%, inside ±10%.
            guard abs(shift) <= maxShiftPercent + 1e-9 else { continue }
            if !tempoAdjustAllowed, abs(ratio - 1) > CadenceRules.unstretchedTolerance + 1e-11 {
                forbidden = true
                continue
            }
            if case .fits(_, _, let bestShift)? = best, abs(bestShift) <= abs(shift) { continue }
            best = .fits(stepsPerBeat: stepsPerBeat, ratio: ratio, shiftPercent: shift)
        }
        return best ?? (forbidden ? .rightsForbidChange : .tooFar)
    }

    /// Steps per beat the rule allows: one, and two at half-time when allowed.
    public var stepCounts: [Int] { allowHalfTime ? [1, 2] : [1] }

    /// The playback-rate factor that puts a `bpm` track's beat on every `stepsPerBeat`-th step: the
    /// one definition of the change; `fit` and `distance` are built on it.
    public static func ratio(spm: Double, bpm: Double, stepsPerBeat: Int) -> Double { spm / (bpm * Double(stepsPerBeat)) }

    /// How far a track is from the cadence at `stepsPerBeat`: the relative change |ratio − 1|, what
    /// `fit` reports as `shiftPercent` / 100. It grows with the distance of `bpm` from the target
    /// tempo on either side, so `CadenceSearch` reads the catalog nearest first by walking the bpm
    /// index outward (`CadenceRulesTests` checks both).
    public func distance(bpm: Double, stepsPerBeat: Int) -> Double {
        abs(CadenceRules.ratio(spm: spm, bpm: bpm, stepsPerBeat: stepsPerBeat) - 1)
    }

    /// Every BPM window a track may be in to match: one step per beat, and at half-time when allowed.
    public var bpmWindows: [ClosedRange<Double>] { stepCounts.map(bpmWindow(stepsPerBeat:)) }

    /// The BPMs that reach `spm` within the allowed change (one step per beat).
    public var bpmWindow: ClosedRange<Double> { bpmWindow(stepsPerBeat: 1) }

    /// The BPMs that reach `spm` within the allowed change at `stepsPerBeat` steps a beat.
    public func bpmWindow(stepsPerBeat: Int) -> ClosedRange<Double> {
        let steps = Double(stepsPerBeat)
        return spm / (1 + maxShiftPercent / 100) / steps...spm / (1 - maxShiftPercent / 100) / steps
    }
}
