import ArgumentParser
import BeatTagKit
import Foundation

/// Cadence rule and filters shared by `match` and `playlist`.
struct MatchOptions: ParsableArguments {
    @Option(help: "Running cadence in steps per minute (100–240).") var spm: Double
    @Option(help: ArgumentHelp("Largest tempo change allowed, percent.", valueName: "pct")) var maxShift: Double = 10
    @Flag(help: "Also let a track serve at one beat every two steps (an 88 BPM track at 176 SPM); labelled in the output.")
    var allowHalfTime = false
    @Option(name: .customLong("genre"), help: ArgumentHelp("Keep only these genres (repeatable, case-insensitive, part of the name is enough).", valueName: "name"))
    var genres: [String] = []
    @Option(name: .customLong("exclude-genre"), help: ArgumentHelp("Leave out these genres (repeatable).", valueName: "name"))
    var excludedGenres: [String] = []
    @Option(name: .customLong("artist"), help: ArgumentHelp("Keep only these artists (repeatable).", valueName: "name"))
    var artists: [String] = []
    @Option(help: ArgumentHelp("Leave out analysed BPMs less sure than this (0–1); hand-set BPMs always count.", valueName: "c"))
    var minConfidence: Double?
    @Option(name: .customLong("source"), help: ArgumentHelp("Keep only tracks with these rights (repeatable).", valueName: "type"))
    var sources: [SourceType] = []
    @Option(name: .customLong("exclude-keyword"), help: ArgumentHelp("Also leave out titles/albums with this word (repeatable).", valueName: "word"))
    var extraKeywords: [String] = []
    @Flag(help: "Do not leave out the default workout keywords (sleep, lullaby, christmas, meditation, … see docs/matching.md).")
    var noDefaultExclusions = false

    func validate() throws {
        guard CadenceRules.cadenceRange.contains(spm) else {
            throw ValidationError("cadence \(spm.formatted()) SPM is outside 100–240 steps per minute")
        }
        guard maxShift > 0, maxShift <= 50 else { throw ValidationError("--max-shift must be above 0 and at most 50 percent") }
        if let minConfidence, !(0...1).contains(minConfidence) { throw ValidationError("--min-confidence must be between 0 and 1") }
    }

    var rules: CadenceRules { CadenceRules(spm: spm, maxShiftPercent: maxShift, allowHalfTime: allowHalfTime) }

    var filter: MatchFilter {
        var f = MatchFilter()
        f.includeGenres = genres
        f.excludeGenres = excludedGenres
        f.artists = artists
        f.minConfidence = minConfidence
        f.sources = sources
        f.excludedKeywords = (noDefaultExclusions ? [] : WorkoutKeywords.defaultExcluded) + extraKeywords
        return f
    }

    /// Why nothing matched, in one paragraph.
    func explainNoMatch(_ result: CadenceMatcher.Result, catalogSize: Int) -> String {
        guard catalogSize > 0 else { return "no tracks match: the catalog is empty (run `beattag scan FOLDER` first)" }
        var text = String(format: "no tracks match %g SPM within ±%g%%", spm, maxShift)
        var reasons = result.rejected.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key.rawValue)" }
        if !result.filtered.isEmpty {
            reasons.append("(filters: " + result.filtered.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key.rawValue)" }
                .joined(separator: ", ") + ")")
        }
        text += " — rejected: " + reasons.joined(separator: ", ")
        if !result.nearest.isEmpty {
            text += ". Nearest tempos in the library: " + result.nearest.map { String(format: "%.1f", $0) }.joined(separator: ", ")
                + String(format: " BPM (a ±%g%% window at %g SPM is %.1f–%.1f BPM)", maxShift, spm,
                         spm / (1 + maxShift / 100), spm / (1 - maxShift / 100))
        }
        return text
    }
}

struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Tracks you can run to at a cadence, one step per beat.",
        discussion: """
            A track qualifies when the tempo change to reach the cadence (spm / bpm) is within ±10% \
            (--max-shift), its rights allow that change (no-derivatives licences only match within 1%), \
            and it has a BPM (analysed, tagged, or set by hand). Ranked by the size of the change, then \
            beat confidence, then steady tempo before variable. No half- or double-time unless \
            --allow-half-time: a 90 BPM track never matches 180 SPM by default.

            Examples:
              beattag match --spm 175
              beattag match --spm 165 --genre rock --genre punk --min-confidence 0.5
              beattag match --spm 180 --source cc0 --source cc-by --m3u8 cc-run.m3u8
            """)

    @OptionGroup var options: MatchOptions
    @Option(help: "Show at most this many.") var limit: Int?
    @Option(help: ArgumentHelp("Also write the matches (all, or --limit) as an M3U8 playlist.", valueName: "file")) var m3u8: String?
    @Flag(help: "Write absolute paths in the playlist.") var absolute = false
    @Flag(help: "JSON array instead of a table.") var json = false
    @OptionGroup var catalogOption: CatalogOption

    func run() throws {
        let catalog = try catalogOption.open(create: false)
        let tracks = try catalog.allTracks()
        let result = CadenceMatcher.match(tracks, rules: options.rules, filter: options.filter)
        let matches = limit.map { Array(result.matches.prefix($0)) } ?? result.matches
        if let m3u8 {
            let text = M3U8Writer.render(matches, title: String(format: "beattag %g SPM", options.spm), playlistPath: m3u8,
                                         absolute: absolute)
            do { try AtomicFile.write(text, to: m3u8) } catch { throw CleanExit.failure("\(error)") }
            try catalog.recordExport(trackIDs: matches.compactMap(\.track.id), playlistPath: FileWalker.absolutePath(m3u8),
                                     at: Date().timeIntervalSince1970)
        }
        if json {
            printJSON(matches)
            return
        }
        guard !matches.isEmpty else {
            print(options.explainNoMatch(result, catalogSize: tracks.count))
            return
        }
        print(MatchTable.render(matches), terminator: "")
        let doubtful = matches.filter(\.tempoInDoubt).count
        if doubtful > 0 {
            print(String(format: "? %d tempo%@ in doubt (confidence below %.1f): check with `beattag tag FILE --double/--half` or `beattag tap FILE`",
                         doubtful, doubtful == 1 ? "" : "s", ConfidenceEvidence.trusted))
        }
        print("\(matches.count) of \(result.matches.count) matching track\(result.matches.count == 1 ? "" : "s") at \(options.spm.formatted()) SPM"
            + (m3u8.map { "; playlist written to \($0)" } ?? ""))
    }
}

enum MatchTable {
    static func render(_ matches: [CadenceMatch]) -> String {
        var table = TextTable(columns: ["#", "track", "BPM", "→ BPM", "shift", "conf", "rights"])
        for (i, m) in matches.enumerated() {
            let confidence = m.track.bpmSource == .manual ? "hand"
                // Truncated, not rounded: 0.797 must not print as "0.80 ?" beside "below 0.8".
                : (m.track.confidence.map { String(format: "%.2f", ($0 * 100).rounded(.down) / 100) + (m.tempoInDoubt ? " ?" : "") } ?? "tag")
            table.add(["\(i + 1)", displayName(m.track) + (m.halfTime ? "  [half-time: 1 beat / 2 steps]" : ""),
                       String(format: "%.1f", m.bpm), String(format: "%.1f", m.adjustedBPM),
                       String(format: "%+.1f%%", m.shiftPercent), confidence,
                       m.track.sourceType.rawValue + (m.track.tempoAdjustAllowed ? "" : " (no change)")])
        }
        return table.render()
    }
}
