import Foundation

/// The words a coach says as a segment starts: "Interval 2 of 4: four minutes in zone 5, 182 steps
/// per minute." In the workout's JSON and M3U8; the renderer speaks them.
public enum CueText {
    public static func text(segmentAt index: Int, of plan: WorkoutPlan, spm: Double) -> String {
        let segment = plan.segments[index]
        func ordinal(of kind: WorkoutPlan.Kind) -> (Int, Int) {
            let same = plan.segments.indices.filter { plan.segments[$0].kind == kind }
            return ((same.firstIndex(of: index) ?? 0) + 1, same.count)
        }
        let lead: String
        switch segment.kind {
        case .work:
            let (k, n) = ordinal(of: .work)
            lead = n > 1 ? "Interval \(k) of \(n)" : capitalised(segment.name)
        case .recovery:
            let (k, n) = ordinal(of: .recovery)
            lead = n > 1 ? "Recovery \(k) of \(n)" : "Recovery"
        case .warmUp: lead = "Warm-up"
        case .coolDown: lead = "Cool-down"
        case .steady: lead = capitalised(segment.name)
        }
        let easy = segment.kind == .recovery ? " easy" : ""
        let pace = String(format: "%.0f steps per minute", spm)
        switch segment.target {
        case .zone(let zone): return "\(lead): \(duration(segment.minutes))\(easy) in zone \(zone), \(pace)."
        case .spm: return "\(lead): \(duration(segment.minutes))\(easy) at \(pace)."
        }
    }

    /// A length as a coach says it: "four minutes", "one and a half minutes" (90 s), "thirty seconds".
    static func duration(_ minutes: Double) -> String {
        let seconds = Int((minutes * 60).rounded())
        let whole = seconds / 60, rest = seconds % 60
        if whole == 0 { return "\(words(rest)) seconds" }
        let minuteWord = whole == 1 ? "minute" : "minutes"
        switch rest {
        case 0: return "\(words(whole)) \(minuteWord)"
        case 30: return "\(words(whole)) and a half minutes"
        default: return "\(words(whole)) \(minuteWord) \(words(rest)) seconds"
        }
    }

    static func words(_ n: Int) -> String {
        let small = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                     "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
        let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
        if n < 20 { return small[n] }
        if n < 100 { return tens[n / 10] + (n % 10 == 0 ? "" : "-" + small[n % 10]) }
        if n < 1000 { return small[n / 100] + " hundred" + (n % 100 == 0 ? "" : " and " + words(n % 100)) }
        return String(n)
    }

    private static func capitalised(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
}
