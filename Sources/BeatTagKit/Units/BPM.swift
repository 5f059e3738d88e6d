/// A tempo in beats per minute. A thin wrapper (no runtime cost) so a tempo is never taken for a
/// period or a frame count.
public struct BPM: UnitValue, CustomStringConvertible {
    public var value: Double

    @inlinable public init(_ value: Double) { self.value = value }

    /// The tempo whose beat lasts `period`.
    @inlinable public init(period: Seconds) { value = 60 / period.value }

    /// How long one beat lasts.
    @inlinable public var period: Seconds { Seconds(60 / value) }

    /// To a tenth of a BPM: how the catalog stores, and every command shows, a tempo.
    @inlinable public var roundedToTenth: BPM { BPM(BPM.roundToTenth(value)) }

    /// The one rounding rule for tempi held as plain numbers (catalog columns, tag values).
    @inlinable public static func roundToTenth(_ bpm: Double) -> Double { (bpm * 10).rounded() / 10 }

    @inlinable public static func * (a: BPM, factor: Double) -> BPM { BPM(a.value * factor) }
    /// The ratio of two tempi (2 for an octave).
    @inlinable public static func / (a: BPM, b: BPM) -> Double { a.value / b.value }

    public var description: String { "\(value) BPM" }
}
