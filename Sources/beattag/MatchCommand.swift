import ArgumentParser
import BeatTagKit
import Foundation

struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Tracks you can run to at a cadence, one step per beat.",
        discussion: """
            A track qualifies when the tempo change to reach the cadence (spm / bpm) is within ±10% \
            (--max-shift), its rights allow that change (no-derivatives licences only match within 1%), \
            and it has a BPM (analysed, tagged, or set by hand). Ranked by the size of the change, then \
            beat confidence, then steady tempo before variable. No half- or double-time: a 90 BPM \
            track never matches 180 SPM.
            """)

    @Option(help: "Running cadence in steps per minute (100–240).") var spm: Double
    @Option(help: "Largest tempo change allowed, percent.") var maxShift: Double = 10
    @Option(help: "Show at most this many.") var limit: Int?
    @Flag(help: "JSON array instead of a table.") var json = false
    @OptionGroup var catalogOption: CatalogOption

    func validate() throws {
        guard CadenceRules.cadenceRange.contains(spm) else {
            throw ValidationError("cadence \(spm) SPM is outside 100–240 steps per minute")
        }
        guard maxShift > 0, maxShift <= 50 else { throw ValidationError("--max-shift must be between 0 and 50 percent") }
    }

    func run() throws {
        let catalog = try catalogOption.open(create: false)
        let (all, rejected) = CadenceMatcher.match(try catalog.allTracks(), rules: CadenceRules(spm: spm, maxShiftPercent: maxShift))
        let matches = limit.map { Array(all.prefix($0)) } ?? all
        if json {
            printJSON(matches)
            return
        }
        if matches.isEmpty {
            let reasons = rejected.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key.rawValue)" }.joined(separator: ", ")
            print(String(format: "no tracks match %.0f SPM within ±%.0f%%", spm, maxShift) + (reasons.isEmpty ? " (catalog is empty)" : " (rejected: \(reasons))"))
            return
        }
        var table = TextTable(columns: ["#", "BPM", "→", "shift", "conf", "rights", "track"])
        for (i, m) in matches.enumerated() {
            table.add(["\(i + 1)", String(format: "%.1f", m.bpm), String(format: "%.1f", m.adjustedBPM),
                       String(format: "%+.1f%%", m.shiftPercent), m.track.confidence.map { String(format: "%.2f", $0) } ?? "-",
                       m.track.sourceType.rawValue, displayName(m.track)])
        }
        print(table.render(), terminator: "")
        print("\(matches.count) of \(all.count) matching track\(all.count == 1 ? "" : "s") at \(Int(spm)) SPM")
    }
}
