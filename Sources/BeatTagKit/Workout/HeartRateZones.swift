/// The five training zones as shares of maximum heart rate (Z1 50–60%, … Z5 90–100%), in beats per
/// minute: by percentage of the maximum, or by Karvonen when the resting rate is known
/// (rest + share × (max − rest), the share of the heart-rate reserve). Each zone carries the
/// cadence the runner holds in it. Sources in docs/workouts.md.
public struct HeartRateZones: Codable, Sendable, Equatable {
    public struct Zone: Codable, Sendable, Equatable {
        public var zone: Int
        public var minHR: Int
        public var maxHR: Int
        public var spm: Double
        /// The cadence is beattag's default, not one the runner set.
        public var spmIsDefault: Bool
    }

    public enum Method: String, Codable, Sendable {
        case percentOfMax = "percent of maximum"
        case karvonen = "Karvonen (heart-rate reserve)"
    }

    /// Lower and upper share of the maximum (or of the reserve) per zone.
    public static let shares: [(lower: Double, upper: Double)] = [(0.5, 0.6), (0.6, 0.7), (0.7, 0.8), (0.8, 0.9), (0.9, 1.0)]

    public var method: Method
    public var zones: [Zone]

    public init(profile: RunnerProfile.Resolved) {
        method = profile.restHR == nil ? .percentOfMax : .karvonen
        zones = HeartRateZones.shares.enumerated().map { index, share in
            func rate(_ fraction: Double) -> Int {
                let value = profile.restHR.map { Double($0) + fraction * Double(profile.maxHR - $0) } ?? fraction * Double(profile.maxHR)
                return Int(value.rounded())
            }
            return Zone(zone: index + 1, minHR: rate(share.lower), maxHR: rate(share.upper), spm: profile.spm(zone: index + 1),
                        spmIsDefault: profile.zoneSPM[index + 1] == nil)
        }
    }

    /// A zone's heart rates; nil for no zone.
    public func range(of zone: Int?) -> (min: Int, max: Int)? {
        zones.first { $0.zone == zone }.map { ($0.minHR, $0.maxHR) }
    }
}
