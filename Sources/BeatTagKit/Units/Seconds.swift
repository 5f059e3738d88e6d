/// A time or a duration in seconds (beat times, grid offsets and periods, track lengths).
/// A thin wrapper: a beat period in seconds cannot be passed where one in onset frames is meant.
public struct Seconds: UnitValue, CustomStringConvertible {
    public var value: Double

    @inlinable public init(_ value: Double) { self.value = value }

    public static let zero = Seconds(0)

    @inlinable public static func + (a: Seconds, b: Seconds) -> Seconds { Seconds(a.value + b.value) }
    @inlinable public static func - (a: Seconds, b: Seconds) -> Seconds { Seconds(a.value - b.value) }

    public var description: String { "\(value) s" }
}
