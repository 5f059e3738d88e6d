import Foundation

/// Durations as a runner reads and writes them: m:ss, or h:mm:ss from an hour; `--duration` text.
public enum DurationText {
    public static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    /// "40m", "1h10m", "90s", "45:00", "2400" (seconds).
    public static func seconds(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let seconds = Double(t), seconds > 0 { return seconds }
        if t.contains(":") {
            let parts = t.split(separator: ":", omittingEmptySubsequences: false).map { Double($0) }
            guard parts.allSatisfy({ $0 != nil }), (2...3).contains(parts.count) else { return nil }
            // Minutes and seconds after the first field are clock digits: 1:99 is a typo, not 2:39.
            guard parts.dropFirst().allSatisfy({ $0! >= 0 && $0! < 60 }), parts[0]! >= 0 else { return nil }
            let total = parts.reduce(0) { $0 * 60 + $1! }
            return total > 0 ? total : nil
        }
        var total = 0.0
        var number = ""
        for c in t {
            if c.isNumber || c == "." { number.append(c); continue }
            guard let value = Double(number) else { return nil }
            switch c {
            case "h": total += value * 3600
            case "m": total += value * 60
            case "s": total += value
            default: return nil
            }
            number = ""
        }
        guard number.isEmpty, total > 0 else { return nil }
        return total
    }
}
