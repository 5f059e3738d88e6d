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
        /// What the file says is wrong (a usage error, as in plan files), not that it cannot be read or written.
        public var isInTheFile = true
    }

    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicit = environment["BEATTAG_PROFILE"], !explicit.isEmpty { return explicit }
        return (UserDirectories.base("XDG_CONFIG_HOME", else: ".config", environment) as NSString).appendingPathComponent("beattag/profile.toml")
    }

    /// The saved profile, or an empty one when none was saved.
    public static func load(path: String) throws -> RunnerProfile {
        guard let text = try savedText(path: path) else { return RunnerProfile() }
        return try parse(text, path: path)
    }

    /// The profile file's text, nil when there is none.
    private static func savedText(path: String) throws -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw StoreError(description: "\(path): cannot read the profile", isInTheFile: false)
        }
        return text
    }

    static func parse(_ text: String, path: String) throws -> RunnerProfile {
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch let error as TOMLParseError {
            throw StoreError(description: "\(path):\(error.source.begin.line):\(error.source.begin.column): not valid TOML: \(error.description)")
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

    /// How `save` wrote the file.
    public enum Saved: Equatable {
        /// A new file.
        case created
        /// The runner's file with the new values in it: comments, layout and order kept.
        case edited
        /// The runner's file written anew: it is laid out in a way line edits cannot follow (an
        /// inline table, a dotted key), so its comments are gone.
        case rewritten
    }

    /// Saves `profile` over the file at `path`. A file the runner wrote keeps its comments, layout and
    /// order: a line changes only where its value does, and settings it lacked are added.
    @discardableResult
    public static func save(_ profile: RunnerProfile, to path: String) throws -> Saved {
        let saved = (try? savedText(path: path)) ?? nil
        let edit = saved.flatMap { edited($0, to: profile) }
        do {
            let folder = (FileWalker.absolutePath(path) as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try AtomicFile.write(edit ?? fresh(profile), to: path, as: .profile)
        } catch {
            throw StoreError(description: "cannot save the profile to \(path): \(error)", isInTheFile: false)
        }
        return saved == nil ? .created : edit == nil ? .rewritten : .edited
    }

    /// A new profile file.
    static func fresh(_ profile: RunnerProfile) -> String {
        var lines = ["# beattag runner profile (beattag zones … --save); options on a command line override it for that run."]
        if let v = profile.maxHR { lines.append("max_hr = \(v)") }
        if let v = profile.restHR { lines.append("rest_hr = \(v)") }
        if let v = profile.age { lines.append("age = \(v)") }
        if !profile.zoneSPM.isEmpty {
            lines.append("")
            lines.append("[zone_spm]")
            for zone in profile.zoneSPM.keys.sorted() { lines.append("\(zone) = \(ExactNumber.text(profile.zoneSPM[zone]!))") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` with `profile`'s values in it: a setting's line changes only if its value does (then
    /// only the value), a missing one is added after the others of its table, and the line endings
    /// stay as they were (CRLF too). Nil when the file is written in a way these line edits do not
    /// follow (a dotted key, an inline table): it is then written anew. The result is read back and
    /// must give `profile`, or it is not used.
    static func edited(_ text: String, to profile: RunnerProfile) -> String? {
        let newline = text.contains("\r\n") ? "\r\n" : "\n"
        var lines = text.components(separatedBy: newline)
        if lines.last == "" { lines.removeLast() }
        let top: [String: String?] = ["max_hr": profile.maxHR.map(String.init), "rest_hr": profile.restHR.map(String.init),
                                      "age": profile.age.map(String.init)]
        let zones = Dictionary(uniqueKeysWithValues: profile.zoneSPM.map { (String($0.key), ExactNumber.text($0.value)) })
        guard set(top, in: nil, of: &lines, newTableAt: nil),
              set(zones, in: "zone_spm", of: &lines, newTableAt: zones.isEmpty ? nil : lines.count) else { return nil }
        let result = lines.joined(separator: newline) + newline
        return (try? parse(result, path: "")) == profile ? result : nil
    }

    /// Sets `values` (nil: removes the key) in table `table` (nil: the top level) of `lines`. A table
    /// not there is opened at `newTableAt` when it has values to hold. Keys are matched as numbers
    /// where both are (zone `04` is zone 4). False when a key is written in another form (quoted,
    /// dotted) that a line edit could get wrong.
    private static func set(_ values: [String: String?], in table: String?, of lines: inout [String], newTableAt: Int?) -> Bool {
        var range: Range<Int>? = table == nil ? 0..<(lines.firstIndex { header(of: $0) != nil } ?? lines.count) : nil
        if let table, let start = lines.firstIndex(where: { header(of: $0) == table }) {
            let end = lines[(start + 1)...].firstIndex { header(of: $0) != nil } ?? lines.count
            range = (start + 1)..<end
        }
        guard var range else {
            guard let at = newTableAt, let table else { return true }
            let added = values.compactMap { key, value in value.map { (key, $0) } }.sorted { $0.0 < $1.0 }.map { "\($0) = \($1)" }
            guard !added.isEmpty else { return true }
            lines.insert(contentsOf: (at > 0 && lines[at - 1].trimmingCharacters(in: .whitespaces).isEmpty ? [] : [""]) + ["[\(table)]"] + added, at: at)
            return true
        }
        func same(_ a: String, _ b: String) -> Bool { a == b || (Int(a) != nil && Int(a) == Int(b)) }
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            if let i = lines[range].firstIndex(where: { keyOf($0).map { same($0, key) } ?? false }) {
                if let value { lines[i] = withValue(value, in: lines[i]) } else {
                    lines.remove(at: i)
                    range = range.lowerBound..<(range.upperBound - 1)
                }
            } else if let value {
                // After the table's last setting, else at its top (below a new file's opening comments).
                let at = (lines[range].lastIndex { keyOf($0) != nil }).map { $0 + 1 } ?? range.lowerBound + (table == nil ? leadingComments(lines) : 0)
                lines.insert("\(key) = \(value)", at: at)
                range = range.lowerBound..<(range.upperBound + 1)
            }
        }
        // Settings these edits cannot place (a quoted or dotted key) make the text unsafe to edit.
        return lines.allSatisfy { line in keyOf(line).map { !$0.contains("\"") && !$0.contains("'") && !$0.contains(".") } ?? true }
    }

    /// The table a `[name]` line opens, nil for any other line.
    private static func header(of line: String) -> String? {
        let t = line.trimmingCharacters(in: .whitespaces)
        guard t.hasPrefix("["), let close = t.firstIndex(of: "]") else { return nil }
        return t[t.index(after: t.startIndex)..<close].trimmingCharacters(in: .whitespaces)
    }

    /// The key of a `key = value` line, nil for comments, blanks and headers.
    private static func keyOf(_ line: String) -> String? {
        let t = line.trimmingCharacters(in: .whitespaces)
        guard !t.hasPrefix("#"), !t.hasPrefix("["), let eq = t.firstIndex(of: "=") else { return nil }
        return t[..<eq].trimmingCharacters(in: .whitespaces)
    }

    /// The line with `value` in place of its value, everything around it (spacing, a trailing
    /// comment) as it was; the line itself when its value already reads as `value` (`170.0`, 170).
    /// The values are numbers, so the value ends at the first space or `#`.
    private static func withValue(_ value: String, in line: String) -> String {
        let afterEquals = line.index(after: line.firstIndex(of: "=")!)
        let start = line[afterEquals...].firstIndex { $0 != " " && $0 != "\t" } ?? line.endIndex
        let end = line[start...].firstIndex { $0 == " " || $0 == "\t" || $0 == "#" } ?? line.endIndex
        let old = String(line[start..<end])
        if old == value || (Double(old) != nil && Double(old) == Double(value)) { return line }
        return String(line[..<start]) + value + String(line[end...])
    }

    /// Comment lines at the top of the file: a setting added to a file with none goes below them.
    private static func leadingComments(_ lines: [String]) -> Int {
        lines.prefix { $0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }.count
    }
}
