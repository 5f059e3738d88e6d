/// What beattag knows of the runner: heart rates and the cadence held in each zone. Every field is
/// optional: a saved profile, then the command line, fill it in (`merged(over:)`).
public struct RunnerProfile: Codable, Sendable, Equatable {
    public var maxHR: Int?
    public var restHR: Int?
    public var age: Int?
    /// Cadence per zone (1…5) where the runner set one; the others take `defaultSPM`.
    public var zoneSPM: [Int: Double] = [:]

    public init(maxHR: Int? = nil, restHR: Int? = nil, age: Int? = nil, zoneSPM: [Int: Double] = [:]) {
        self.maxHR = maxHR
        self.restHR = restHR
        self.age = age
        self.zoneSPM = zoneSPM
    }

    /// Defaults, not science: no published source maps heart-rate zones to cadence. Cadence rises
    /// with speed, a few steps per minute per zone, around the 170–180 of steady running.
    public static let defaultSPM: [Int: Double] = [1: 160, 2: 166, 3: 172, 4: 177, 5: 182]

    /// A maximum outside this is a typo (`--max-hr 40` for a resting rate): measured maxima of adults
    /// lie within it, and Tanaka's estimate gives 138–201 over the ages taken.
    public static let maxHeartRateRange = 100...230
    /// Resting rates of elite endurance athletes go below 30; above 130 is not rest.
    public static let restHeartRateRange = 25...130
    public static let ageRange = 10...100

    /// `self` with the fields `override` sets replaced (command line over saved profile).
    public func merged(over base: RunnerProfile) -> RunnerProfile {
        RunnerProfile(maxHR: maxHR ?? base.maxHR, restHR: restHR ?? base.restHR, age: age ?? base.age,
                      zoneSPM: base.zoneSPM.merging(zoneSPM) { _, new in new })
    }

    /// A profile complete enough to compute zones.
    public struct Resolved: Sendable, Equatable {
        public var maxHR: Int
        /// Estimated from age (Tanaka: 208 − 0.7 × age), not measured.
        public var maxHREstimated: Bool
        public var restHR: Int?
        public var zoneSPM: [Int: Double]

        public func spm(zone: Int) -> Double { RunnerProfile.spm(zone: zone, in: zoneSPM) }
    }

    /// A zone's cadence: the runner's own, else the default.
    public static func spm(zone: Int, in zoneSPM: [Int: Double]) -> Double { zoneSPM[zone] ?? defaultSPM[zone] ?? 170 }

    public enum ProfileError: Error, CustomStringConvertible, Equatable {
        case noMaxHR
        case outOfRange(String)
        public var description: String {
            switch self {
            case .noMaxHR:
                return "no maximum heart rate: give --max-hr (or --age to estimate it), or save one with `beattag zones --max-hr N --save`"
            case .outOfRange(let what): return what
            }
        }
    }

    /// The zone cadences, checked: all that running a plan by zone needs (its music follows the
    /// cadences; only the heart-rate ranges need the maximum heart rate).
    public func validZoneSPM() throws -> [Int: Double] {
        for (zone, spm) in zoneSPM {
            guard (1...5).contains(zone) else { throw ProfileError.outOfRange("zone \(zone) does not exist: zones are 1–5") }
            guard CadenceRules.cadenceRange.contains(spm) else { throw ProfileError.outOfRange("zone \(zone) cadence \(ExactNumber.text(spm)) SPM is outside 100–240") }
        }
        return zoneSPM
    }

    /// Zones whose cadence is below a lower zone's (`5=150` under zone 4's 177): allowed, since a
    /// runner may know better, but said, since it is more often a slip of the finger.
    public static func cadencesFallingWithZone(_ zoneSPM: [Int: Double]) -> [(zone: Int, spm: Double, below: Int, belowSPM: Double)] {
        var falling: [(zone: Int, spm: Double, below: Int, belowSPM: Double)] = []
        for zone in 2...5 {
            let value = spm(zone: zone, in: zoneSPM)
            if let lower = (1..<zone).max(by: { spm(zone: $0, in: zoneSPM) < spm(zone: $1, in: zoneSPM) }),
               spm(zone: lower, in: zoneSPM) > value {
                falling.append((zone, value, lower, spm(zone: lower, in: zoneSPM)))
            }
        }
        return falling
    }

    /// Each value given, checked on its own (a profile file's values are checked so before the
    /// command line's are put over them, so that an error can name the file).
    public func checkRanges() throws {
        if let maxHR, !RunnerProfile.maxHeartRateRange.contains(maxHR) {
            throw ProfileError.outOfRange("maximum heart rate \(maxHR) is outside \(RunnerProfile.maxHeartRateRange.lowerBound)–\(RunnerProfile.maxHeartRateRange.upperBound) (a resting rate is --rest-hr)")
        }
        if let age, !RunnerProfile.ageRange.contains(age) { throw ProfileError.outOfRange("age \(age) is outside 10–100") }
        if let restHR, !RunnerProfile.restHeartRateRange.contains(restHR) {
            throw ProfileError.outOfRange("resting heart rate \(restHR) is outside \(RunnerProfile.restHeartRateRange.lowerBound)–\(RunnerProfile.restHeartRateRange.upperBound)")
        }
        _ = try validZoneSPM()
    }

    public func resolved() throws -> Resolved {
        try checkRanges()
        let estimated = maxHR == nil
        guard let max = maxHR ?? age.map({ Int((208 - 0.7 * Double($0)).rounded()) }) else { throw ProfileError.noMaxHR }
        if let restHR {
            // Its range is checked above (`checkRanges`); here only against the maximum.
            guard restHR < max - 20 else {
                throw ProfileError.outOfRange("resting heart rate \(restHR) must be well below the maximum (\(max))")
            }
        }
        return Resolved(maxHR: max, maxHREstimated: estimated, restHR: restHR, zoneSPM: try validZoneSPM())
    }
}
