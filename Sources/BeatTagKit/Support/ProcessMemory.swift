import Foundation

/// This process's resident memory from /proc (Linux): the peak, and a reset of the peak so that
/// one stage's high-water mark can be read on its own.
public enum ProcessMemory {
    /// Peak resident set size (VmHWM) in bytes; nil where /proc is not there.
    public static func peakResidentBytes() -> Int? { statusField("VmHWM:") }

    public static func residentBytes() -> Int? { statusField("VmRSS:") }

    /// Sets the peak back to the current size (Linux 4.0+: "5" to clear_refs). False if refused.
    @discardableResult
    public static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    private static func statusField(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
              let kilobytes = Int(line.dropFirst(name.count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        else { return nil }
        return kilobytes * 1024
    }
}
