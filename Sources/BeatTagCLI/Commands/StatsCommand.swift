import ArgumentParser
import BeatTagKit
import Foundation

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Library overview: tracks per 5 BPM over 140–200 (and how many lie outside), tracks usable at each cadence, what needs attention.")

    @Option(help: ArgumentHelp("Also write the per-bucket chart as an SVG image.", valueName: "file")) var svg: String?
    @Flag(help: "JSON instead of text.") var json = false
    @OptionGroup var catalogOption: CatalogOption

    func run() throws {
        let console = Console.current
        let catalog = try catalogOption.open(create: false, access: .readOnly)
        let stats = try LibraryStats(catalog: catalog)
        if let svg {
            do { try AtomicFile.write(stats.svg(), to: svg, as: .svg) } catch { throw CommandFailure("\(error)") }
        }
        if json { try console.printJSON(stats); return }
        console.print("\(stats.total) tracks: \(stats.analysed) analysed, \(stats.metadataOnly) metadata-only (\(stats.metadataOnlyWithoutBPM) without BPM), "
            + "\(stats.failed) failed, \(stats.missing) missing; \(stats.needsHuman) need a human (`beattag untagged`)")
        console.print("\nTracks per 5 BPM (BPM in use):")
        let peak = max(1, stats.buckets.map(\.tracks).max() ?? 1)
        for b in stats.buckets {
            let bar = String(repeating: "█", count: Int((Double(b.tracks) / Double(peak) * 40).rounded()))
            console.print(String(format: "  %3.0f–%3.0f │%@ %d", b.from, b.to, bar, b.tracks))
        }
        console.print(String(format: "  outside the chart: %d below %.0f BPM, %d above %.0f, %d without a BPM",
                             stats.belowRange, LibraryStats.range.lowerBound, stats.aboveRange, LibraryStats.range.upperBound, stats.withoutBPM))
        console.print(String(format: "\nUsable at each cadence (±%g%%, rights respected; before match's filters, such as its default keyword exclusions):", CadenceRules.defaultMaxShiftPercent))
        var table = TextTable(columns: ["  SPM"] + stats.cadences.map { String(format: "%.0f", $0.spm) })
        table.add(["  tracks"] + stats.cadences.map { "\($0.usable)" })
        console.print(table.render(), terminator: "")
        if let svg { console.print("\nchart written to \(svg)") }
    }
}
