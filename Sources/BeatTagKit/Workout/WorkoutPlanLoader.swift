import Foundation

/// A plan as a command names it: a built-in plan (4x4, easy, tempo, progression), else a TOML plan
/// file (`PlanFile`). A file of a built-in plan's name wins: the user wrote it.
public enum WorkoutPlanLoader {
    public static func load(_ name: String) throws -> WorkoutPlan {
        if let builtIn = BuiltInPlans.plan(named: name), !FileManager.default.fileExists(atPath: name) { return builtIn }
        return try PlanFile.load(path: name)
    }
}
