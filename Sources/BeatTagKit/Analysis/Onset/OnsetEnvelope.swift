import Foundation

/// Onset strength over time: half-wave rectified spectral flux of a log-compressed magnitude
/// spectrogram, kept per frequency band (kick/bass, snare body, upper mids, hats/noise) so that
/// later stages can weigh percussive layers separately.
public struct OnsetEnvelope: Sendable {
    /// Onset groups. At most four: the detector sums them in one SIMD4.
    public enum Band: Int, CaseIterable, Sendable {
        case low = 0, snare, mid, high

        /// Snare and tom bodies from 200 Hz, below most hat energy.
        public var lowerEdgeHz: Double { [0, 200, 1000, 2000][rawValue] }

        /// The group a frequency falls in.
        static func containing(_ hz: Double) -> Band { allCases.last { hz >= $0.lowerEdgeHz } ?? .low }
    }

    /// Frames per second.
    public var frameRate: Double
    /// Time of frame 0 in seconds (window centre, corrected for the decimator's delay).
    public var startTime: Seconds
    /// Sum of the bands.
    public var strength: [Float]
    /// Flux per `Band`, indexed by its raw value.
    public var bands: [[Float]]
    /// Per-frame RMS of the analysis signal: tells silence and drumless passages apart.
    public var energy: [Float]
    /// Log level of each ~¼-octave filter band, 25 frames a second: what the sound is, where the
    /// flux says only when it changes. Nil for envelopes built directly (tests).
    public var spectrum: SpectralFrames? = nil
    /// The first frame whose window starts with sound (its first hop above digital silence): 0 when
    /// the track starts with sound, more after a lead-in of digital silence (a decoder's priming
    /// zeros, a rendered lead-in). Nil when unknown (frames dropped, envelopes built directly) or
    /// when the track holds no sound at all.
    public var soundStart: Int? = nil

    public var count: Int { strength.count }
    public func flux(_ band: Band) -> [Float] { bands[band.rawValue] }
}
