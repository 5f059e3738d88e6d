import BeatTagKit

/// A workout plan named on the command line (`workout`, `render`): a built-in name or a TOML file;
/// a plan that cannot be read is a usage error (64).
enum PlanArgument {
    static func load(_ name: String) throws -> WorkoutPlan {
        do { return try WorkoutPlanLoader.load(name) } catch { throw CommandFailure("\(error)", code: 64) }
    }
}
