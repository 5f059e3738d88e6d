/// What every unit type shares: a `Double` inside, ordering, literals, and encoding as a plain
/// number (so JSON and the catalog see numbers, not objects). The types stay distinct: a `BPM`
/// cannot be passed where `Seconds` are meant, and a plain `Double` variable needs `init(_:)`.
public protocol UnitValue: Hashable, Comparable, Sendable, Codable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    var value: Double { get set }
    init(_ value: Double)
}

extension UnitValue {
    @inlinable public init(floatLiteral value: Double) { self.init(value) }
    @inlinable public init(integerLiteral value: Int) { self.init(Double(value)) }
    @inlinable public static func < (a: Self, b: Self) -> Bool { a.value < b.value }

    public init(from decoder: Decoder) throws { self.init(try decoder.singleValueContainer().decode(Double.self)) }
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
