import Foundation

/// Durations as a runner reads and writes them: m:ss, or h:mm:ss from an hour; `--duration` text.
public enum DurationText {
    public static func clock(_ seconds: Double) -> String {
        clock(wholeSeconds: Int(seconds.rounded()))
    }

    private static func clock(wholeSeconds s: Int) -> String {
        s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    /// Two times as clock times, to a tenth of a second where whole seconds would show two different
    /// times alike ("0:09.7 of 0:10.2", not "0:10 of 0:10" for a segment said to be short).
    public static func clocks(_ a: Double, _ b: Double) -> (String, String) {
        let (x, y) = (clock(a), clock(b))
        guard x == y, abs(a - b) >= 0.05 else { return (x, y) }
        func tenths(_ seconds: Double) -> String {
            let t = Int((seconds * 10).rounded())
            return clock(wholeSeconds: t / 10) + ".\(t % 10)"
        }
        return (tenths(a), tenths(b))
    }

    /// A shortfall: under ten seconds in tenths ("0.5 s", where a clock time said "0:01" or "0:00").
    public static func shortfall(_ seconds: Double) -> String {
        seconds < 10 ? String(format: "%.1f s", seconds) : clock(seconds)
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
