import ArgumentParser
import BeatTagKit
import Foundation

struct ZonesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "zones",
        abstract: "Show your five heart-rate zones and the cadence you run in each.",
        discussion: """
            Zones as shares of the maximum heart rate: Z1 50–60%, Z2 60–70%, Z3 70–80%, Z4 80–90%, Z5 90–100%. \
            With --rest-hr they are shares of the heart-rate reserve (Karvonen: rest + share × (max − rest)), \
            which fits trained runners better. Without --max-hr, --age estimates it (Tanaka: 208 − 0.7 × age), \
            marked as an estimate. Each zone's cadence is a default until you set yours with --zone-spm. \
            --save keeps the profile for `workout` (see docs/workouts.md).

            Examples:
              beattag zones --max-hr 190 --rest-hr 50
              beattag zones --age 41 --zone-spm 4=176 --zone-spm 5=184 --save
              beattag zones --json
            """)

    @OptionGroup var profile: ProfileOptions
    @Flag(help: "Print JSON: {\"zones\": [{\"zone\", \"minHR\", \"maxHR\", \"spm\", \"spmIsDefault\"}, …], \"maxHR\", \"restHR\", \"method\", \"maxHREstimated\"}.")
    var json = false

    struct Output: Encodable {
        var zones: [HeartRateZones.Zone]
        var maxHR: Int
        var restHR: Int?
        var maxHREstimated: Bool
        var method: String

        // `restHR` is always there, null when not known (the help lists it; an audit found it missing).
        enum CodingKeys: String, CodingKey { case zones, maxHR, restHR, maxHREstimated, method }
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(zones, forKey: .zones)
            try container.encode(maxHR, forKey: .maxHR)
            try container.encode(restHR, forKey: .restHR)
            try container.encode(maxHREstimated, forKey: .maxHREstimated)
            try container.encode(method, forKey: .method)
        }
    }

    func run() throws {
        let console = Console.current
        let resolved = try profile.resolve(console: console)
        let zones = HeartRateZones(profile: resolved)
        if json {
            try console.printJSON(Output(zones: zones.zones, maxHR: resolved.maxHR, restHR: resolved.restHR,
                                         maxHREstimated: resolved.maxHREstimated, method: zones.method.rawValue))
            return
        }
        var table = TextTable(columns: ["zone", "share", "heart rate", "cadence"])
        for (zone, share) in zip(zones.zones, HeartRateZones.shares) {
            table.add(["Z\(zone.zone)", String(format: "%.0f–%.0f%%", share.lower * 100, share.upper * 100), "\(zone.minHR)–\(zone.maxHR)",
                       String(format: "%g SPM", zone.spm) + (zone.spmIsDefault ? " (default)" : "")])
        }
        console.print(table.render())
        var basis = "maximum \(resolved.maxHR)"
        if resolved.maxHREstimated { basis += " (estimated from age: 208 − 0.7 × age; a measured maximum is better)" }
        if let rest = resolved.restHR { basis += ", resting \(rest): shares of the heart-rate reserve (Karvonen)" } else { basis += ": shares of the maximum" }
        console.print(basis)
    }
}
