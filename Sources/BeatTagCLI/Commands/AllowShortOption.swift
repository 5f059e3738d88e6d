import ArgumentParser
import BeatTagKit

/// `--allow-short`, shared by `playlist`, `workout` and `render`: a run more than 5% short of music
/// (a segment or the whole) is written all the same, and exits 3 unless this is given.
struct AllowShortOption: ParsableArguments {
    @Flag(help: "Exit 0 even when the music falls more than 5% short of the time asked (a segment or the whole).")
    var allowShort = false

    /// Exit 3 for a short run, unless allowed.
    func exitIfShort() throws {
        guard !allowShort else { return }
        throw ExitCode(RunShortfall.exitCode)
    }
}
