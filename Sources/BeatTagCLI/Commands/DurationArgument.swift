import ArgumentParser

/// A running time on a command line (`--duration`): a bare number is seconds (`2400`), and a bare
/// number under ten minutes is more likely minutes without their `m` (`--duration 90` gave a run of
/// a minute and a half without a word): refused, saying how to write either.
enum DurationArgument {
    static let shortestBareSeconds = 600.0

    static func refuseShortBareSeconds(_ text: String, seconds: Double) throws {
        guard Double(text.trimmingCharacters(in: .whitespaces)) != nil, seconds < shortestBareSeconds else { return }
        throw ValidationError("--duration \(text) would be \(text) seconds: write \(text)m for minutes (or \(text)s if you mean seconds)")
    }
}
