import ArgumentParser
import BeatTagKit
import Foundation

/// The runner profile on a command line (`zones`, `workout`, `render`): what is given
/// here applies to this run, over the saved profile; `--save` keeps it.
struct ProfileOptions: ParsableArguments {
    @Option(name: .customLong("max-hr"), parsing: .unconditional, help: ArgumentHelp("Maximum heart rate, beats per minute (measured is best).", valueName: "bpm"))
    var maxHR: Int?
    @Option(name: .customLong("rest-hr"), parsing: .unconditional, help: ArgumentHelp("Resting heart rate: zones by Karvonen (share of the heart-rate reserve).", valueName: "bpm"))
    var restHR: Int?
    @Option(parsing: .unconditional, help: ArgumentHelp("Age in years: estimates the maximum heart rate (Tanaka: 208 − 0.7 × age) when --max-hr is not known.", valueName: "years"))
    var age: Int?
    @Option(name: .customLong("zone-spm"), help: ArgumentHelp("The cadence you hold in a zone, e.g. 4=176 (repeatable; defaults: 1=160 2=166 3=172 4=177 5=182).", valueName: "zone=spm"))
    var zoneSPM: [String] = []
    @Flag(help: "Save the profile (the saved one with these options applied) for later runs.") var save = false
    @Option(help: ArgumentHelp("Profile file (default: $BEATTAG_PROFILE, else $XDG_CONFIG_HOME/beattag/profile.toml, else ~/.config/beattag/profile.toml).", valueName: "file"))
    var profile: String?

    func validate() throws { _ = try parsedZoneSPM() }

    /// The options given on the command line that shape the profile (the file's path aside).
    var given: [String] {
        [(maxHR != nil, "--max-hr"), (restHR != nil, "--rest-hr"), (age != nil, "--age"), (!zoneSPM.isEmpty, "--zone-spm"), (save, "--save"),
         (profile != nil, "--profile")]
            .filter(\.0).map(\.1)
    }

    func parsedZoneSPM() throws -> [Int: Double] {
        var result: [Int: Double] = [:]
        for entry in zoneSPM {
            let parts = entry.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let zone = Int(parts[0]), (1...5).contains(zone), let spm = Double(parts[1]),
                  CadenceRules.cadenceRange.contains(spm) else {
                throw ValidationError("--zone-spm \(entry): write zone=cadence, a zone 1–5 and a cadence within 100–240, e.g. 4=176")
            }
            // `4=180 … 4=170`: which one was meant is not ours to guess.
            if let earlier = result[zone], earlier != spm {
                throw ValidationError("--zone-spm gives zone \(zone) twice (\(ExactNumber.text(earlier)) and \(ExactNumber.text(spm))): give it once")
            }
            result[zone] = spm
        }
        return result
    }

    var profilePath: String { profile ?? ProfileStore.defaultPath() }

    /// Saved profile with this command line over it; saved first when --save. Tells what it saved.
    func resolve(console: Console) throws -> RunnerProfile.Resolved {
        let merged = try mergedProfile()
        let resolved: RunnerProfile.Resolved
        // Missing or contradictory heart rates are a usage error (64), like any other bad option.
        do { resolved = try merged.resolved() } catch { throw CommandFailure("\(error)", code: 64) }
        try saveIfAsked(merged, console: console)
        warnOfFallingCadences(resolved.zoneSPM, console: console)
        return resolved
    }

    /// The zone cadences alone (a render plays them; it shows no heart rates): no maximum heart rate
    /// needed, but one given is checked as everywhere. Saved first when --save.
    func zoneCadences(console: Console) throws -> [Int: Double] {
        let merged = try mergedProfile()
        let cadences: [Int: Double]
        do {
            // The cadences need no heart rates, but any given are checked (--max-hr 500 is a mistake).
            if merged.maxHR != nil || merged.age != nil || merged.restHR != nil { _ = try merged.resolved() }
            cadences = try merged.validZoneSPM()
        } catch { throw CommandFailure("\(error)", code: 64) }
        try saveIfAsked(merged, console: console)
        warnOfFallingCadences(cadences, console: console)
        return cadences
    }

    private func warnOfFallingCadences(_ zoneSPM: [Int: Double], console: Console) {
        for fall in RunnerProfile.cadencesFallingWithZone(zoneSPM) {
            console.writeErr("note: zone \(fall.zone)'s cadence \(ExactNumber.text(fall.spm)) SPM is below zone \(fall.below)'s \(ExactNumber.text(fall.belowSPM)); "
                             + "cadence usually rises with effort (set it with --zone-spm \(fall.zone)=N)\n")
        }
    }

    private func mergedProfile() throws -> RunnerProfile {
        let given = RunnerProfile(maxHR: maxHR, restHR: restHR, age: age, zoneSPM: try parsedZoneSPM())
        var saved: RunnerProfile
        do { saved = try ProfileStore.load(path: profilePath) } catch {
            // A wrong value in the file is a usage error (64), as the same value given as an option is.
            throw CommandFailure("\(error)", code: (error as? ProfileStore.StoreError)?.isInTheFile == true ? 64 : 1)
        }
        // --age asks for the estimate from age: a saved maximum heart rate silently won over it.
        if age != nil, maxHR == nil { saved.maxHR = nil }
        // A wrong value the file holds, and this run uses, is named with the file: the runner never typed `500`.
        var used = saved
        if maxHR != nil { used.maxHR = nil }
        if restHR != nil { used.restHR = nil }
        if age != nil { used.age = nil }
        used.zoneSPM = used.zoneSPM.filter { given.zoneSPM[$0.key] == nil }
        do { try used.checkRanges() } catch { throw CommandFailure("\(profilePath): \(error)", code: 64) }
        return given.merged(over: saved)
    }

    private func saveIfAsked(_ merged: RunnerProfile, console: Console) throws {
        guard save else { return }
        let saved: ProfileStore.Saved
        do { saved = try ProfileStore.save(merged, to: profilePath) } catch { throw CommandFailure("\(error)") }
        console.writeErr("saved the runner profile to \(profilePath)"
                         + (saved == .rewritten ? " (written anew: its layout is one these edits cannot follow, so its comments are gone)" : "") + "\n")
    }
}
