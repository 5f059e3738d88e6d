/// Columns padded to their widest cell, in terminal columns (`DisplayWidth`): accented, CJK and
/// emoji names line up.
struct TextTable {
    var columns: [String]
    var rows: [[String]] = []

    mutating func add(_ row: [String]) { rows.append(row) }

    func render() -> String {
        var widths = columns.map(DisplayWidth.of)
        for row in rows { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], DisplayWidth.of(cell)) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { i, cell in
                i == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - DisplayWidth.of(cell))
            }.joined(separator: "  ") + "\n"
        }
        return line(columns) + rows.map(line).joined()
    }
}
