/// How one estimate compares with its annotated tempo, by `TempoMetrics`' rules: the bench's
/// per-clip column, and the same word in `bench --json`, so that scripts pooling reports count
/// what the bench counts instead of restating its tolerances.
public enum TempoVerdict: String, Codable, Sendable {
    /// Within 2%.
    case ok
    /// Within 4% (Acc1) but not 2%.
    case within4 = "ok (4%)"
    /// Within 4% of double or half.
    case octave = "OCTAVE"
    /// Within 4% of 3/2 or 2/3.
    case threeTwo = "3:2"
    case wrong = "WRONG"

    public init(estimate: Double, reference: Double) {
        self = TempoMetrics.strict(estimate, reference) ? .ok
            : TempoMetrics.acc1(estimate, reference) ? .within4
            : TempoMetrics.octaveError(estimate, reference) ? .octave
            : TempoMetrics.threeTwoError(estimate, reference) ? .threeTwo : .wrong
    }
}
