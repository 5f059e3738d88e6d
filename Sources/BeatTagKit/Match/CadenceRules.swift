/// The 1:1 cadence rule: which tempo change a track may take to put its beat on the runner's step.
public struct CadenceRules: Sendable {
    public static let cadenceRange = TempoRanges.cadence
    public static let defaultMaxShiftPercent = 10.0
    public var spm: Double
    /// Largest tempo change allowed, percent.
    public var maxShiftPercent = CadenceRules.defaultMaxShiftPercent
    /// Tracks whose rights forbid tempo adjustment must already be this close, percent.
    public var untouchableTolerancePercent = 1.0
    /// Let a track serve at one beat every two steps (88 BPM at 176 SPM). Off by default.
    public var allowHalfTime = false

    public init(spm: Double, maxShiftPercent: Double = CadenceRules.defaultMaxShiftPercent, allowHalfTime: Bool = false) {
        self.spm = spm
        self.maxShiftPercent = maxShiftPercent
        self.allowHalfTime = allowHalfTime
    }

    /// The BPMs that reach `spm` within the allowed change (one step per beat).
    public var bpmWindow: ClosedRange<Double> {
        spm / (1 + maxShiftPercent / 100)...spm / (1 - maxShiftPercent / 100)
    }
}
