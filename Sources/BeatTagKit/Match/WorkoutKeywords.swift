/// Titles and albums a workout playlist should not pick by default (docs/matching.md).
public enum WorkoutKeywords {
    public static let defaultExcluded = [
        "sleep", "lullaby", "christmas", "xmas", "meditation", "relaxation", "relaxing", "ambient", "white noise",
        "rain sounds", "asmr", "spa", "yoga nidra", "interlude", "intro", "outro", "skit",
    ]
}
