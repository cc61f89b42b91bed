/// Plain-text table: a header row, then one line per row, columns two spaces apart.
///
/// Cells may carry ANSI colors; all widths are display widths (`TextWidth`), so colors
/// and wide characters line up.
struct Table: Sendable {
    /// One column's title and layout rules.
    struct Column: Sendable {
        var title: String
        var alignRight: Bool = false
        /// Whether the column may shrink (cutting cells with "…") to fit `maxWidth`.
        var truncatable: Bool = false
        /// The narrowest a truncatable column may become.
        var minWidth: Int = 1
        /// When the table does not fit even with every truncatable column at its `minWidth`, columns
        /// with a drop order are left out, lowest first, until it does; nil columns always stay.
        var dropOrder: Int? = nil
    }

    var columns: [Column]
    /// Missing cells count as empty; cells beyond `columns.count` are ignored.
    var rows: [[String]]
    /// What marks a cut cell: "…", or "..." when the terminal is not UTF-8.
    var ellipsis: String = "…"

    static let gap = "  "

    /// The table as lines joined by "\n", with no trailing spaces and no final newline.
    ///
    /// When the natural width exceeds `maxWidth`, columns are first dropped by `dropOrder` while
    /// the table cannot fit with its truncatable columns at their `minWidth`; then the widest
    /// truncatable column shrinks one column at a time until the table fits or every truncatable
    /// column is at its `minWidth`; a table that still does not fit is printed wider than `maxWidth`.
    func render(maxWidth: Int?) -> String {
        guard !columns.isEmpty else { return "" }
        let widths = columnWidths(maxWidth: maxWidth)
        let lines = [columns.map(\.title)] + rows
        return lines.map { line(for: $0, widths: widths) }.joined(separator: "\n")
    }

    /// Natural widths, dropped columns at width 0, shrunk as described in `render(maxWidth:)`.
    func columnWidths(maxWidth: Int?) -> [Int] {
        var widths = columns.map { TextWidth.of($0.title) }
        for row in rows {
            for (index, cell) in row.prefix(columns.count).enumerated() {
                widths[index] = max(widths[index], TextWidth.of(cell))
            }
        }
        guard let maxWidth else { return widths }
        let shown = shownColumns(naturalWidths: widths, maxWidth: maxWidth)
        for index in columns.indices where !shown.contains(index) { widths[index] = 0 }
        var overflow = shown.map { widths[$0] }.reduce(0, +) + Self.gap.count * (shown.count - 1) - maxWidth
        while overflow > 0 {
            let shrinkable = shown.filter {
                columns[$0].truncatable && widths[$0] > max(columns[$0].minWidth, 1)
            }
            guard let widest = shrinkable.max(by: { widths[$0] < widths[$1] }) else { break }
            widths[widest] -= 1
            overflow -= 1
        }
        return widths
    }

    /// The width of the widest line `render(maxWidth:)` produces.
    func renderedWidth(maxWidth: Int?) -> Int {
        let widths = columnWidths(maxWidth: maxWidth).filter { $0 > 0 }
        return widths.reduce(0, +) + Self.gap.count * max(widths.count - 1, 0)
    }

    /// The columns left after dropping, lowest `dropOrder` first, while even the narrowest layout is wider than `maxWidth`.
    private func shownColumns(naturalWidths widths: [Int], maxWidth: Int) -> [Int] {
        var shown = Array(columns.indices)
        func narrowest() -> Int {
            shown.map { columns[$0].truncatable ? min(widths[$0], max(columns[$0].minWidth, 1)) : widths[$0] }.reduce(0, +)
                + Self.gap.count * (shown.count - 1)
        }
        let droppable = columns.indices.filter { columns[$0].dropOrder != nil }.sorted { columns[$0].dropOrder! < columns[$1].dropOrder! }
        for index in droppable where narrowest() > maxWidth {
            shown.removeAll { $0 == index }
        }
        return shown
    }

    /// One rendered line: cells cut and padded to `widths`, trailing spaces removed.
    private func line(for cells: [String], widths: [Int]) -> String {
        var parts: [String] = []
        for (index, column) in columns.enumerated() where widths[index] > 0 || column.dropOrder == nil {
            let cell = index < cells.count ? cells[index] : ""
            let fitted = TextWidth.truncate(cell, to: widths[index], ellipsis: ellipsis)
            parts.append(TextWidth.pad(fitted, to: widths[index], alignRight: column.alignRight))
        }
        var text = parts.joined(separator: Self.gap)
        while text.last == " " { text.removeLast() }
        return text
    }
}
