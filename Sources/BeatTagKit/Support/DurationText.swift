import Foundation

/// Durations as a runner reads them: m:ss, or h:mm:ss from an hour.
public enum DurationText {
    public static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }
}
