import BeatTagKit
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Columns padded to their widest cell, in terminal columns (`DisplayWidth`): accented, CJK and
/// emoji names line up. The table fits the terminal: `flexible` columns (folders, rights) are cut
/// with "…", widest first, until the lines fit `TextTable.width`; the `title` column (the track's
/// name, what a reader scans for) only once they cannot shrink further.
struct TextTable {
    var columns: [String]
    var rows: [[String]] = []
    /// Columns that may be shortened to fit (indices into `columns`).
    var flexible: Set<Int> = []
    /// A flexible column cut last.
    var title: Int?

    init(columns: [String], flexible: Set<Int> = [], title: Int? = nil) {
        self.columns = columns
        self.flexible = flexible
        self.title = title
    }

    mutating func add(_ row: [String]) { rows.append(row.map(VisibleControls.text)) }

    /// A flexible column is never cut below this many columns.
    static let narrowest = 8

    /// `$COLUMNS`, else the terminal's width, else 100.
    static var width: Int {
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let columns = Int(text), columns >= 20 { return columns }
        return TerminalWidth.columns(of: 1) ?? 100
    }

    func render(width: Int = TextTable.width) -> String {
        var widths = columns.map(DisplayWidth.of)
        for row in rows { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], DisplayWidth.of(cell)) } }
        // Cut the widest flexible column by one until the table fits or none can shrink; the title last.
        func shrinkable(_ columns: Set<Int>) -> Int? {
            columns.filter { $0 < widths.count && widths[$0] > TextTable.narrowest }.max { (widths[$0], $1) < (widths[$1], $0) }
        }
        while widths.reduce(0, +) + 2 * (widths.count - 1) > width,
              let widest = shrinkable(flexible.subtracting(title.map { [$0] } ?? [])) ?? shrinkable(flexible) {
            widths[widest] -= 1
        }
        func line(_ cells: [String]) -> String {
            var text = ""
            for (i, raw) in cells.enumerated() {
                let cell = i < widths.count ? DisplayWidth.truncated(raw, to: widths[i]) : raw
                text += i == cells.count - 1 ? cell : cell + String(repeating: " ", count: max(0, widths[i] - DisplayWidth.of(cell))) + "  "
            }
            return text + "\n"
        }
        return line(columns) + rows.map(line).joined()
    }
}
