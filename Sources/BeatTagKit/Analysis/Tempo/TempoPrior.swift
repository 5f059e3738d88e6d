import Foundation

/// A log-normal belief over tempo before listening: most music sits within an octave of the centre.
/// Broad on purpose where it picks the family (evidence, not the prior, decides between 87 and
/// 175); the octave decision carries its own fitted tempo term (see `OctaveDecision`).
public struct TempoPrior: Sendable {
    public var centre: Double
    /// Standard deviation in octaves.
    public var width: Double

    public static let family = TempoPrior(centre: 120, width: 1)

    public init(centre: Double, width: Double) {
        self.centre = centre
        self.width = width
    }

    /// Relative density, 1 at the centre.
    public func weight(_ bpm: Double) -> Double {
        let x = log2(bpm / centre) / width
        return exp(-0.5 * x * x)
    }
}
