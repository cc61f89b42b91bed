extension Table {
    /// The layout of a table that loses the least at `maxWidth`, among forms of the same table (the
    /// first the richest: dates with their time of day, say, and then shorter forms).
    ///
    /// A form's loss is the drop orders of the columns it drops at `maxWidth` plus its own `loss` (what
    /// the shorter form leaves out, ranked like a drop order); forms are compared by their most
    /// important loss first, so dropping the two least important columns beats dropping the third.
    /// A form wider than `maxWidth` loses more than any that fits. Ties go to the earlier form.
    static func leastLoss(_ forms: [(table: Table, loss: Int?)], maxWidth: Int?) -> Table {
        precondition(!forms.isEmpty, "at least one form")
        guard let maxWidth, forms.count > 1 else { return forms[0].table }
        func losses(_ form: (table: Table, loss: Int?)) -> [Int] {
            let widths = form.table.columnWidths(maxWidth: maxWidth)
            var lost = form.table.columns.indices.compactMap { widths[$0] == 0 ? form.table.columns[$0].dropOrder : nil }
            if let loss = form.loss { lost.append(loss) }
            let shown = widths.filter { $0 > 0 }
            if shown.reduce(0, +) + Table.gap.count * max(shown.count - 1, 0) > maxWidth { lost.append(.max) }
            return lost.sorted(by: >)
        }
        var best = forms[0].table
        var bestLosses = losses(forms[0])
        for form in forms.dropFirst() {
            let lost = losses(form)
            if lost.lexicographicallyPrecedes(bestLosses) {
                best = form.table
                bestLosses = lost
            }
        }
        return best
    }
}
