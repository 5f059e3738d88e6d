import ArgumentParser

/// A running time on a command line (`--duration`): a bare number is seconds, and a bare number
/// under a minute is shorter than one song, so minutes were surely meant.
enum DurationArgument {
    static func refuseBareSecondsUnderAMinute(_ text: String, seconds: Double) throws {
        guard Double(text.trimmingCharacters(in: .whitespaces)) != nil, seconds < 60 else { return }
        throw ValidationError("--duration \(text) would be \(text) seconds: write \(text)m for minutes (or \(text)s if you mean seconds)")
    }
}
