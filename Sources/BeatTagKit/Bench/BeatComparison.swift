/// How closely one beat list follows another (a file's beats after re-encoding against the
/// original's): for every reference beat, the distance to the nearest beat of the other list.
public struct BeatComparison: Codable, Sendable, CustomStringConvertible {
    public var compared: Int
    public var within10ms: Int
    public var medianOffsetMs: Double?
    public var p95OffsetMs: Double?
    public var maxOffsetMs: Double?

    public var shareWithin10ms: Double { compared == 0 ? 0 : Double(within10ms) / Double(compared) }

    public init(beats: [Double], reference: [Double]) {
        let sorted = beats.sorted()
        var offsets: [Double] = []
        for beat in reference {
            // Binary search for the first beat at or after the reference one.
            var low = 0, high = sorted.count
            while low < high { let mid = (low + high) / 2; if sorted[mid] < beat { low = mid + 1 } else { high = mid } }
            let near = [low - 1, low].filter { sorted.indices.contains($0) }.map { abs(sorted[$0] - beat) }.min()
            if let near { offsets.append(near * 1000) }
        }
        offsets.sort()
        compared = reference.count
        within10ms = offsets.filter { $0 <= 10 }.count
        medianOffsetMs = offsets.isEmpty ? nil : offsets[offsets.count / 2]
        p95OffsetMs = offsets.isEmpty ? nil : offsets[min(offsets.count - 1, Int(Double(offsets.count) * 0.95))]
        maxOffsetMs = offsets.last
    }

    public var description: String {
        String(format: "%d/%d beats within 10 ms, median %.1f ms, 95th %.1f ms", within10ms, compared,
               medianOffsetMs ?? .nan, p95OffsetMs ?? .nan)
    }
}
