import ArgumentParser
import BeatTagKit
import Foundation

/// Cadence rule and filters shared by `match` and `playlist`.
struct MatchOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Running cadence in steps per minute (100–240).", transform: PlainNumber.double) var spm: Double
    @OptionGroup var filters: MatchFilterOptions
    @OptionGroup var halfTime: HalfTimeOption

    func validate() throws { try MatchOptions.checkCadence(spm) }

    /// A cadence a runner can hold, or a usage error saying the range.
    static func checkCadence(_ spm: Double) throws {
        guard CadenceRules.cadenceRange.contains(spm) else {
            throw ValidationError("cadence \(spm.formatted()) SPM is outside \(CadenceRules.cadenceRange.lowerBound.formatted())–\(CadenceRules.cadenceRange.upperBound.formatted()) steps per minute")
        }
    }

    var rules: CadenceRules { CadenceRules(spm: spm, maxShiftPercent: filters.maxShift, allowHalfTime: halfTime.allowHalfTime) }
    var filter: MatchFilter { filters.filter }

    /// Why nothing in `catalog` matched, in one paragraph.
    func explainNoMatch(in catalog: Catalog) throws -> String { try filters.explainNoMatch(rules, in: catalog) }
}

/// Half time, for the commands that list tracks (`match`, `playlist`, `workout`); `render` puts a
/// beat on every step and keeps the flag hidden only to refuse it with a reason.
struct HalfTimeOption: ParsableArguments {
    @Flag(help: "Also let a track serve at one beat every two steps (an 88 BPM track at 176 SPM); labelled in the output.")
    var allowHalfTime = false
}

/// The tempo-change limit and the filters, for every command that picks tracks (`match`,
/// `playlist`, `workout`, `render`).
struct MatchFilterOptions: ParsableArguments {
    // Unconditional: "--max-shift -5" is a value to refuse with a reason, not an unknown option.
    @Option(parsing: .unconditional, help: ArgumentHelp("Largest tempo change allowed, percent (default: 10).", valueName: "pct"), transform: PlainNumber.double)
    var maxShift: Double = CadenceRules.defaultMaxShiftPercent
    @Option(name: .customLong("genre"), help: ArgumentHelp("Keep only these genres (repeatable, case-insensitive, part of the name is enough).", valueName: "name"))
    var genres: [String] = []
    @Option(name: .customLong("exclude-genre"), help: ArgumentHelp("Leave out these genres (repeatable).", valueName: "name"))
    var excludedGenres: [String] = []
    @Option(name: .customLong("artist"), help: ArgumentHelp("Keep only these artists (repeatable).", valueName: "name"))
    var artists: [String] = []
    @Option(parsing: .unconditional, help: ArgumentHelp("Leave out analysed BPMs less sure than this (0–1); hand-set BPMs always count.", valueName: "c"), transform: PlainNumber.double)
    var minConfidence: Double?
    @Option(name: .customLong("source"), help: ArgumentHelp("Keep only tracks with these rights (repeatable).", valueName: "type"))
    var sources: [SourceType] = []
    @Option(name: .customLong("exclude-keyword"), help: ArgumentHelp("Also leave out tracks whose title, album or file name has this word (repeatable).", valueName: "word"))
    var extraKeywords: [String] = []
    @Flag(help: "Only tracks you liked (`beattag rate --like`).") var liked = false
    @Flag(help: "Do not leave out the default workout keywords (sleep, lullaby, christmas, meditation, … see docs/matching.md).")
    var noDefaultExclusions = false

    func validate() throws {
        guard maxShift > 0, maxShift <= 50 else { throw ValidationError("--max-shift must be above 0 and at most 50 percent") }
        if let minConfidence, !(0...1).contains(minConfidence) { throw ValidationError("--min-confidence must be between 0 and 1") }
        // An empty name would match nothing (or everything) without a word said.
        for (option, values) in [("--genre", genres), ("--exclude-genre", excludedGenres), ("--artist", artists), ("--exclude-keyword", extraKeywords)]
            where values.contains(where: { $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw ValidationError("\(option) needs a name (it was empty)")
        }
    }

    var filter: MatchFilter {
        var f = MatchFilter()
        f.includeGenres = genres
        f.excludeGenres = excludedGenres
        f.artists = artists
        f.minConfidence = minConfidence
        f.sources = sources
        f.likedOnly = liked
        f.excludedKeywords = (noDefaultExclusions ? [] : WorkoutKeywords.defaultExcluded) + extraKeywords
        return f
    }

    /// Why nothing in `catalog` matches `rules` with these filters, in one paragraph. Judges the
    /// whole catalog: only for when the candidates in the tempo window gave nothing.
    func explainNoMatch(_ rules: CadenceRules, in catalog: Catalog) throws -> String {
        let all = try catalog.allTracks()
        return explainNoMatch(rules, CadenceMatcher.match(all, rules: rules, filter: filter), catalogSize: all.count)
    }

    private func explainNoMatch(_ rules: CadenceRules, _ result: CadenceMatcher.Result, catalogSize: Int) -> String {
        let spm = rules.spm, maxShift = rules.maxShiftPercent
        guard catalogSize > 0 else { return "no tracks match: the catalog is empty (run `beattag scan FOLDER` first)" }
        var text = String(format: "no tracks match %g SPM within ±%g%%", spm, maxShift)
        // The filters' own counts go with "filtered out", in brackets, not as a reason of their own.
        let filters = result.filtered.isEmpty ? "" : " (" + byCount(result.filtered).map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", ") + ")"
        let reasons = byCount(result.rejected).map { "\($0.value) \($0.key.rawValue)" + ($0.key == .filtered ? filters : "") }
        text += " — rejected: " + reasons.joined(separator: ", ")
        if !result.nearest.isEmpty {
            text += ". Nearest tempos in the library: " + result.nearest.map { String(format: "%.1f", $0) }.joined(separator: ", ")
                + String(format: " BPM (a ±%g%% window at %g SPM is %.1f–%.1f BPM)", maxShift, spm,
                         rules.bpmWindow.lowerBound, rules.bpmWindow.upperBound)
        }
        return text
    }

    /// Most first; equal counts in name order, the same on every run.
    private func byCount<Key: RawRepresentable>(_ counts: [Key: Int]) -> [(key: Key, value: Int)] where Key.RawValue == String {
        counts.sorted { ($0.value, $1.key.rawValue) > ($1.value, $0.key.rawValue) }
    }
}
