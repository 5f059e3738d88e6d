/// Whether a track has onsets at all: how far its strongest onsets (the 99th percentile of the
/// onset strength, less its one-second moving average) rise above the flux around them, in the
/// strength's own units (natural-log spectral change summed over the bands).
///
/// The tempo stages read normalised curves, which make a pulse out of anything: a steady tone's
/// frame-to-frame ripple (0.02–0.6 here) or the random flux of white, pink or brown noise (3.3–3.6
/// over seven noises, whatever their level: the flux is of log levels) both have a strongest
/// period, and the confidence model, fitted on music, scored them as music: a 1 kHz tone read
/// 136.4 BPM at 0.98. Music rises higher: 6.0–71 on corpus-dev and corpus-real-dev, 2.5–13 on the
/// real fit split, where the two lowest (2.5 and 3.9) are music whose onsets barely stand out of
/// the noise of the mix; of those, the first is read wrong. The measure depends on the detector
/// (`OnsetDetector`'s window and bands), not on any corpus: noise sets its floor.
public enum OnsetHeight {
    /// White noise's height, the level below which onsets are no evidence of a pulse.
    public static let noiseFloor = 3.5
    /// The height from which it limits the confidence no more.
    public static let clear = 5.5

    /// The 99th percentile of the strength less its moving average; nil under three seconds.
    static func measure<C: Collection>(_ strength: C, frameRate: Double) -> Double? where C.Element == Float {
        guard Double(strength.count) >= 3 * frameRate else { return nil }
        let rise = Novelty.detrended(Array(strength), frameRate: frameRate).sorted()
        return Double(rise[Int(Double(rise.count - 1) * 0.99)])
    }

    /// The most a tempo read from onsets this high can be trusted: nothing at the noise floor and
    /// below, rising linearly to no limit at `clear`. A beatless track has no right tempo, and music
    /// whose onsets stand no higher than noise's is music a person should hear before it is trusted.
    public static func confidenceLimit(_ height: Double) -> Double {
        min(1, max(0, (height - noiseFloor) / (clear - noiseFloor)))
    }
}
