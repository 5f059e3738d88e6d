import BeatTagKit
import Foundation

/// done/total, files per second and time left, redrawn in place on a terminal at most 10 times a second.
final class ProgressLine: @unchecked Sendable {
    private let console: Console
    private let enabled: Bool
    private let lock = NSLock()
    private var lastDraw = 0.0
    private var drawn = false
    private var stage = ScanProgress.Stage.files
    /// The first report of a long job: its rate is measured from here (planning before it does not count).
    private var firstReport: (fraction: Double, at: Date)?

    init(console: Console, enabled: Bool) {
        self.console = console
        self.enabled = enabled
    }

    func update(_ p: ScanProgress) {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        if p.stage != stage { (stage, lastDraw) = (p.stage, -1) }  // a stage's clock starts at 0
        guard p.done == p.total || p.elapsed - lastDraw >= 0.1 else { return }
        lastDraw = p.elapsed
        let rate = p.elapsed > 0 ? Double(p.done) / p.elapsed : 0
        let eta = rate > 0 ? Double(p.total - p.done) / rate : 0
        let width = 24
        let filled = p.total > 0 ? width * p.done / p.total : width
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let name = VisibleControls.text((p.currentPath as NSString).lastPathComponent)
        let line = p.stage == .copies
            ? String(format: "[%@] %d/%d  finding copies of recordings  ETA %@", bar, p.done, p.total, DurationText.clock(eta))
            : String(format: "[%@] %d/%d  %.1f files/s  ETA %@  %@", bar, p.done, p.total, rate, DurationText.clock(eta), String(name.prefix(40)))
        draw(line)
    }

    /// The stage a share is of ("choosing music"): a new one draws at once and measures its own pace.
    private var label = ""

    /// A share of one long job (a render), with the time left; `label` names its stage.
    func update(fraction: Double, started: Date, label: String = "") {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        if label != self.label { (self.label, firstReport, lastDraw) = (label, nil, -1) }
        let now = Date()
        let elapsed = now.timeIntervalSince(started)
        guard fraction >= 1 || elapsed - lastDraw >= 0.1 else { return }
        lastDraw = elapsed
        let first = firstReport ?? (fraction, now)
        firstReport = first
        // The time left from the rate since the first report, once it says something (5% done or 2 s in).
        let progressed = fraction - first.fraction, measuring = now.timeIntervalSince(first.at)
        let eta = progressed >= 0.05 || (measuring >= 2 && progressed > 0)
            ? DurationText.clock(measuring * (1 - fraction) / progressed) : "--:--"
        let width = 24
        let filled = min(width, Int(Double(width) * fraction))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        draw(String(format: "[%@] %3.0f%%  ETA %@", bar, fraction * 100, eta) + (label.isEmpty ? "" : "  " + label))
    }

    /// Redraws the line, cut to the terminal's width: a line that wraps leaves its first part on
    /// the screen at every redraw (the erase reaches only the row the cursor is on).
    private func draw(_ line: String) {
        let columns = TerminalWidth.columns(of: 2, minimum: 2) ?? 80  // a line of any width wraps past the edge
        console.writeErr("\r\u{1B}[2K" + DisplayWidth.truncated(line, to: columns - 1))
        drawn = true
    }

    func clear() {
        guard enabled else { return }
        lock.lock(); defer { lock.unlock() }
        if drawn { console.writeErr("\r\u{1B}[2K"); drawn = false }
    }
}
