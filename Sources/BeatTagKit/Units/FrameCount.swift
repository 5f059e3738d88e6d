/// A span of onset frames: a beat period at the envelope's frame rate, a distance between beats.
public struct FrameCount: UnitValue {
    public var value: Double

    @inlinable public init(_ value: Double) { self.value = value }

    @inlinable public static func / (a: FrameCount, divisor: Double) -> FrameCount { FrameCount(a.value / divisor) }
    @inlinable public static func * (a: FrameCount, factor: Double) -> FrameCount { FrameCount(a.value * factor) }
}
