import TallyEssentials

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
        /// Truncatable columns with a lower shrink order give up their room first (down to their
        /// `minWidth`); among equals the widest shrinks. The most important column gets the highest.
        var shrinkOrder: Int = 0
        /// When the table does not fit even with every truncatable column at its `minWidth`, columns
        /// with a drop order are left out, lowest first, until it does; nil columns always stay.
        var dropOrder: Int? = nil
    }

    var columns: [Column]
    /// The cells row after row, `columns.count` of them per row.
    var cells: [String]
    /// What marks a cut cell: "…", or "..." when the terminal is not UTF-8.
    var ellipsis: String

    /// A table of `rows`: missing cells count as empty; cells beyond `columns.count` are ignored.
    init(columns: [Column], rows: [[String]], ellipsis: String = "…") {
        self.columns = columns
        self.ellipsis = ellipsis
        cells = []
        cells.reserveCapacity(rows.count * columns.count)
        for row in rows {
            cells += row.prefix(columns.count)
            if row.count < columns.count { cells += repeatElement("", count: columns.count - row.count) }
        }
    }

    /// A table whose cells come row after row, `columns.count` per row (a large table is built
    /// without an array per row).
    init(columns: [Column], cells: [String], ellipsis: String = "…") {
        precondition(columns.isEmpty ? cells.isEmpty : cells.count % columns.count == 0, "every row has a cell for each column")
        self.columns = columns
        self.cells = cells
        self.ellipsis = ellipsis
    }

    var rowCount: Int { columns.isEmpty ? 0 : cells.count / columns.count }

    static let gap = "  "

    /// The table as lines joined by "\n", with no trailing spaces and no final newline.
    ///
    /// When the natural width exceeds `maxWidth`, columns are first dropped by `dropOrder` while
    /// the table cannot fit with its truncatable columns at their `minWidth`; then the widest
    /// truncatable column of the lowest `shrinkOrder` shrinks one column at a time until the table fits or every truncatable
    /// column is at its `minWidth`; a table that still does not fit is printed wider than `maxWidth`.
    func render(maxWidth: Int?) -> String {
        guard !columns.isEmpty else { return "" }
        let measured = measure()
        let widths = columnWidths(maxWidth: maxWidth, measured: measured)
        // One byte buffer for the whole table: cells are copied in as UTF-8, never joined per line.
        var text: [UInt8] = []
        text.reserveCapacity((widths.reduce(0, +) + Self.gap.utf8.count * columns.count + 1) * (rowCount + 1))
        let titles = columns.map(\.title)
        appendLine(titles[...], cellWidths: measured.titles[...], widths: widths, to: &text)
        for start in stride(from: 0, to: cells.count, by: columns.count) {
            text.append(UInt8(ascii: "\n"))
            appendLine(cells[start ..< start + columns.count], cellWidths: measured.cells[start ..< start + columns.count], widths: widths, to: &text)
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The display width of every title and cell, measured once (`cells` in the order of `Table.cells`).
    private struct Measured {
        var titles: [Int]
        var cells: [Int]
    }

    private func measure() -> Measured {
        Measured(titles: columns.map { TextWidth.of($0.title) }, cells: cells.map(TextWidth.of))
    }

    /// Natural widths, dropped columns at width 0, shrunk as described in `render(maxWidth:)`.
    func columnWidths(maxWidth: Int?) -> [Int] {
        columnWidths(maxWidth: maxWidth, measured: measure())
    }

    private func columnWidths(maxWidth: Int?, measured: Measured) -> [Int] {
        var widths = measured.titles
        if !columns.isEmpty {
            for (offset, width) in measured.cells.enumerated() {
                let index = offset % columns.count
                widths[index] = max(widths[index], width)
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
            guard let first = shrinkable.map({ columns[$0].shrinkOrder }).min() else { break }
            guard let widest = shrinkable.filter({ columns[$0].shrinkOrder == first }).max(by: { widths[$0] < widths[$1] }) else { break }
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

    /// The columns left after dropping, lowest `dropOrder` first, while even the narrowest layout is wider than `maxWidth`;
    /// then a dropped column that is not truncatable is put back, highest `dropOrder` first, when the layout still fits.
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
        // A dropped column that is not truncatable comes back, most important first, where it still fits.
        for index in droppable.reversed() where !shown.contains(index) && !columns[index].truncatable {
            shown.append(index)
            shown.sort()
            if narrowest() > maxWidth { shown.removeAll { $0 == index } }
        }
        return shown
    }

    /// Appends one line: cells cut and padded to `widths`, dropped columns left out, without trailing spaces.
    ///
    /// Padding is held back until something visible follows it, so nothing is written only to be
    /// removed; a cell that itself ends in spaces at the end of the line is trimmed afterwards.
    private func appendLine(_ cells: ArraySlice<String>, cellWidths: ArraySlice<Int>, widths: [Int], to text: inout [UInt8]) {
        let lineStart = text.count
        var pending = 0
        var first = true
        // By index: a `Column` bound per cell would be copied (its title retained and released) for every cell.
        for index in columns.indices where widths[index] > 0 || columns[index].dropOrder == nil {
            let alignRight = columns[index].alignRight
            if !first { pending += Self.gap.utf8.count }
            first = false
            let cell = cells[cells.startIndex + index]
            var width = cellWidths[cellWidths.startIndex + index]
            var fitted = cell
            if width > widths[index] {
                fitted = TextWidth.truncate(cell, to: widths[index], ellipsis: ellipsis, atWord: true)
                width = TextWidth.of(fitted)
            }
            let missing = max(widths[index] - width, 0)
            if alignRight { pending += missing }
            if !fitted.isEmpty {
                Self.appendSpaces(pending, to: &text)
                pending = 0
                text.append(contentsOf: fitted.utf8)
            }
            if !alignRight { pending += missing }
        }
        while text.count > lineStart, text.last == UInt8(ascii: " ") { text.removeLast() }
    }

    private static let spaces = [UInt8](repeating: UInt8(ascii: " "), count: 64)

    /// Appends `count` spaces, copied from a run of spaces (a repeated element is appended one by one).
    private static func appendSpaces(_ count: Int, to text: inout [UInt8]) {
        var left = count
        while left > 0 {
            let run = min(left, spaces.count)
            text.append(contentsOf: spaces[..<run])
            left -= run
        }
    }
}
