/// A position on the onset envelope's frame axis (about 100 frames a second), fractional after
/// sub-frame peak refinement. `OnsetCurves.time(of:)` turns it into `Seconds`.
public struct FramePosition: UnitValue {
    public var value: Double

    @inlinable public init(_ value: Double) { self.value = value }

    @inlinable public static func + (a: FramePosition, b: FrameCount) -> FramePosition { FramePosition(a.value + b.value) }
    @inlinable public static func - (a: FramePosition, b: FrameCount) -> FramePosition { FramePosition(a.value - b.value) }
    @inlinable public static func - (a: FramePosition, b: FramePosition) -> FrameCount { FrameCount(a.value - b.value) }
    /// Halfway between two positions (the "and" between two beats).
    @inlinable public static func midpoint(_ a: FramePosition, _ b: FramePosition) -> FramePosition { FramePosition((a.value + b.value) / 2) }
}
