/// The plans beattag knows by name. Sources and choices in docs/workouts.md.
public enum BuiltInPlans {
    public static let names = ["4x4", "easy", "tempo", "progression"]

    public static func plan(named name: String) -> WorkoutPlan? {
        switch name.lowercased() {
        case "4x4": return fourByFour
        case "easy": return easy
        case "tempo": return tempo
        case "progression": return progression
        default: return nil
        }
    }

    /// Helgerud et al. 2007: 10 min warm-up, 4 × 4 min at 90–95% of HRmax (zone 5) with 3 min of
    /// active recovery at about 70% (the top of zone 2), then a cool-down.
    public static let fourByFour: WorkoutPlan = {
        var segments = [WorkoutPlan.Segment(name: "warm-up", minutes: 10, target: .zone(2), kind: .warmUp)]
        for n in 1...4 {
            segments.append(.init(name: "work \(n)", minutes: 4, target: .zone(5), kind: .work))
            if n < 4 { segments.append(.init(name: "recovery \(n)", minutes: 3, target: .zone(2), kind: .recovery)) }
        }
        segments.append(.init(name: "cool-down", minutes: 5, target: .zone(1), kind: .coolDown))
        return WorkoutPlan(name: "4x4", segments: segments)
    }()

    /// Steady and conversational: zone 2.
    public static let easy = WorkoutPlan(name: "easy", segments: [
        .init(name: "easy run", minutes: 30, target: .zone(2), kind: .steady),
    ])

    /// Zone 4 blocks with zone 3 floats between them.
    public static let tempo = WorkoutPlan(name: "tempo", segments: [
        .init(name: "warm-up", minutes: 10, target: .zone(2), kind: .warmUp),
        .init(name: "tempo 1", minutes: 8, target: .zone(4), kind: .work),
        .init(name: "float 1", minutes: 3, target: .zone(3), kind: .recovery),
        .init(name: "tempo 2", minutes: 8, target: .zone(4), kind: .work),
        .init(name: "float 2", minutes: 3, target: .zone(3), kind: .recovery),
        .init(name: "tempo 3", minutes: 8, target: .zone(4), kind: .work),
        .init(name: "cool-down", minutes: 5, target: .zone(1), kind: .coolDown),
    ])

    /// Each block a zone faster than the last.
    public static let progression = WorkoutPlan(name: "progression", segments: [
        .init(name: "zone 1", minutes: 8, target: .zone(1), kind: .warmUp),
        .init(name: "zone 2", minutes: 10, target: .zone(2), kind: .steady),
        .init(name: "zone 3", minutes: 10, target: .zone(3), kind: .steady),
        .init(name: "zone 4", minutes: 8, target: .zone(4), kind: .work),
        .init(name: "zone 5", minutes: 4, target: .zone(5), kind: .work),
    ])
}
