import Foundation
import TOMLKit

/// The saved runner profile: a small TOML file at $BEATTAG_PROFILE, else
/// $XDG_CONFIG_HOME/beattag/profile.toml, else ~/.config/beattag/profile.toml.
///
///     max_hr = 190
///     rest_hr = 50
///     age = 41
///     [zone_spm]
///     4 = 176
public enum ProfileStore {
    public struct StoreError: Error, CustomStringConvertible {
        public var description: String
    }

    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["BEATTAG_PROFILE"], !explicit.isEmpty { return explicit }
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".config")
        return (config as NSString).appendingPathComponent("beattag/profile.toml")
    }

    /// The saved profile, or an empty one when none was saved.
    public static func load(path: String) throws -> RunnerProfile {
        guard FileManager.default.fileExists(atPath: path) else { return RunnerProfile() }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw StoreError(description: "\(path): cannot read the profile")
        }
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch let error as TOMLParseError {
            throw StoreError(description: "\(path):\(error.source.begin.line): not valid TOML: \(error.description)")
        }
        // A misspelt key (`resting_hr`) would silently leave its setting out: refused, as in plan files.
        let known = ["max_hr", "rest_hr", "age", "zone_spm"]
        if let unknown = table.keys.sorted().first(where: { !known.contains($0) }) {
            throw StoreError(description: "\(path): unknown setting `\(unknown)` (a profile has \(known.joined(separator: ", ")))")
        }
        func integer(_ key: String) throws -> Int? {
            guard let value = table[key] else { return nil }
            guard let n = value.int else { throw StoreError(description: "\(path): `\(key)` must be a whole number") }
            return n
        }
        var profile = RunnerProfile(maxHR: try integer("max_hr"), restHR: try integer("rest_hr"), age: try integer("age"))
        if let zones = table["zone_spm"] {
            guard let zones = zones.table else { throw StoreError(description: "\(path): `zone_spm` must be a table of zone = cadence") }
            for key in zones.keys {
                guard let zone = Int(key), let value = zones[key], let spm = value.double ?? value.int.map(Double.init) else {
                    throw StoreError(description: "\(path): zone_spm.\(key) must be a zone 1–5 with a cadence")
                }
                profile.zoneSPM[zone] = spm
            }
        }
        return profile
    }

    public static func save(_ profile: RunnerProfile, to path: String) throws {
        var lines = ["# beattag runner profile (beattag zones … --save); options on a command line override it for that run."]
        if let v = profile.maxHR { lines.append("max_hr = \(v)") }
        if let v = profile.restHR { lines.append("rest_hr = \(v)") }
        if let v = profile.age { lines.append("age = \(v)") }
        if !profile.zoneSPM.isEmpty {
            lines.append("")
            lines.append("[zone_spm]")
            for zone in profile.zoneSPM.keys.sorted() { lines.append("\(zone) = \(profile.zoneSPM[zone]!.formatted(.number.grouping(.never)))") }
        }
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try AtomicFile.write(lines.joined(separator: "\n") + "\n", to: path)
        } catch {
            throw StoreError(description: "cannot save the profile to \(path): \(error)")
        }
    }
}
