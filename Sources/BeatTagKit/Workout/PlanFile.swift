import Foundation
import TOMLKit

/// A plan in TOML: an optional top-level `name` and `[[segments]]`, each with `name`, `minutes`
/// (may be fractional) and either `zone` (1–5) or `spm`. Errors name the line and the field.
public enum PlanFile {
    public struct PlanError: Error, CustomStringConvertible, Equatable {
        public var path: String
        public var line: Int?
        public var message: String
        /// Where on the line, when the TOML parser says.
        public var column: Int? = nil
        public var description: String { "\(path)\(line.map { ":\($0)" } ?? "")\(column.map { ":\($0)" } ?? ""): \(message)" }
    }

    public static let example = """
        name = "hills and flats"

        [[segments]]
        name = "warm-up"
        minutes = 8
        zone = 2

        [[segments]]
        name = "strides"
        minutes = 1.5
        spm = 185
        """

    public static func load(path: String) throws -> WorkoutPlan {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw PlanError(path: path, line: nil, message: FileManager.default.fileExists(atPath: path) ? "cannot read the file" : "no such plan file (built-in plans: \(BuiltInPlans.names.joined(separator: ", ")))")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw PlanError(path: path, line: nil, message: "not UTF-8 text") }
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String) throws -> WorkoutPlan {
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch let error as TOMLParseError {
            throw PlanError(path: path, line: error.source.begin.line, message: "not valid TOML: \(error.description)",
                            column: error.source.begin.column)
        }
        // Any line ending: "\r\n" is one Character, and a split on "\n" read a Windows file as one line (no line numbers).
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        func fail(_ message: String, segment: Int? = nil, key: String? = nil) -> PlanError {
            PlanError(path: path, line: line(of: key, inSegment: segment, lines: lines), message: message)
        }
        for key in table.keys where !["name", "segments"].contains(key) {
            throw fail("unknown field `\(key)` (a plan has `name` and [[segments]])", key: key)
        }
        var name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        if let value = table["name"] {
            guard let text = value.string, !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw fail("`name` must be a non-empty string", key: "name") }
            name = text
        }
        guard let array = table["segments"]?.array, !array.isEmpty else {
            throw fail("no segments: add [[segments]] tables with name, minutes and zone or spm")
        }
        // A plan of thousands of segments is a generated mistake, and filling one costs minutes.
        guard array.count <= maxSegments else { throw fail("\(array.count) segments: a plan holds at most \(maxSegments)") }
        var segments: [WorkoutPlan.Segment] = []
        for index in 0..<array.count {
            let n = index + 1
            guard let entry = array[index].table else { throw fail("segment \(n) is not a table", segment: index) }
            for key in entry.keys where !["name", "minutes", "zone", "spm"].contains(key) {
                throw fail("segment \(n): unknown field `\(key)` (use name, minutes, zone or spm)", segment: index, key: key)
            }
            guard let segmentName = entry["name"]?.string, !segmentName.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw fail("segment \(n): `name` is missing or not a string", segment: index, key: entry["name"] == nil ? nil : "name")
            }
            // Ten seconds at least: less holds no phrase of music (an audit: 0.0001 was taken, then "short by 0:00").
            guard let minutes = number(entry["minutes"]), minutes >= 10.0 / 60, minutes <= 600 else {
                throw fail("segment \(n) (\(segmentName)): `minutes` must be a number from 0.17 (10 s) to 600", segment: index, key: entry["minutes"] == nil ? nil : "minutes")
            }
            let zone = entry["zone"], spm = entry["spm"]
            let target: WorkoutPlan.Target
            switch (zone, spm) {
            case (nil, nil), (.some, .some):
                throw fail("segment \(n) (\(segmentName)): give either `zone` (1–5) or `spm`, one of them", segment: index, key: zone == nil ? nil : "zone")
            case (let zone?, nil):
                guard let z = zone.int, (1...5).contains(z) else { throw fail("segment \(n) (\(segmentName)): `zone` must be a whole number 1–5", segment: index, key: "zone") }
                target = .zone(z)
            case (nil, let spm?):
                guard let s = number(spm), CadenceRules.cadenceRange.contains(s) else {
                    throw fail("segment \(n) (\(segmentName)): `spm` must be a cadence within 100–240", segment: index, key: "spm")
                }
                target = .spm(s)
            }
            segments.append(.init(name: segmentName, minutes: minutes, target: target))
        }
        let hours = segments.map(\.minutes).reduce(0, +) / 60
        guard hours <= maxHours else { throw fail(String(format: "the plan lasts %.1f h: at most %g h", hours, maxHours)) }
        return WorkoutPlan(name: name, segments: segments)
    }

    static let maxSegments = 300
    static let maxHours = 24.0

    private static func number(_ value: TOMLValueConvertible?) -> Double? {
        guard let value else { return nil }
        return value.double ?? value.int.map(Double.init)
    }

    /// The line of `key` in the segment'th `[[segments]]` block (or at top level), 1-based; the
    /// block's header when the key is absent.
    static func line(of key: String?, inSegment segment: Int?, lines: [String]) -> Int? {
        let trimmed = lines.map { $0.trimmingCharacters(in: .whitespaces) }
        let headers = trimmed.indices.filter { trimmed[$0].hasPrefix("[[segments]]") }
        let start: Int, end: Int
        if let segment {
            guard segment < headers.count else { return nil }
            start = headers[segment]
            end = segment + 1 < headers.count ? headers[segment + 1] : lines.count
        } else {
            start = 0
            end = trimmed.firstIndex { $0.hasPrefix("[") } ?? lines.count
        }
        // `key = …`, a dotted `key.sub = …`, or a sub-table `[segments.key]` of the segment.
        func names(_ line: String) -> Bool {
            if line.hasPrefix("[segments.\(key ?? "")") { return ["]", "."].contains(line.dropFirst("[segments.".count + (key ?? "").count).first) }
            guard let key, line.hasPrefix(key) else { return false }
            let rest = line.dropFirst(key.count).trimmingCharacters(in: .whitespaces)
            return rest.hasPrefix("=") || rest.hasPrefix(".")
        }
        if key != nil, let found = (start..<end).first(where: { names(trimmed[$0]) }) { return found + 1 }
        return segment == nil ? nil : start + 1
    }
}
