/// When a run (a render, a workout, a playlist) counts as short of music: the music falls short of
/// the planned time by more than 5%, for a segment or for the whole. Such a run is still written,
/// and the command exits 3 unless told `--allow-short`.
public enum RunShortfall {
    public static let tolerance = 0.05
    /// The exit status of a run written short of music.
    public static let exitCode: Int32 = 3

    public static func isShort(music: Double, planned: Double) -> Bool {
        planned > 0 && planned - music > tolerance * planned + 1e-6
    }
}
