#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEngine
import TallyDomain
import TallyEssentials

/// Human output for todos: the list table, one-line confirmations and the detail view.
struct TodoRenderer {
    let context: CLIContext

    private var catalog: Catalog { context.catalog }
    private var style: Style { Style(color: context.settings.color) }

    /// The completed marker, readable without color.
    func marker(_ todo: Todo) -> String {
        let box = todo.deleted ? "[-]" : (todo.completed ? "[x]" : "[ ]")
        guard todo.series != nil else { return box }
        return box + (context.settings.unicode ? "↻" : "r")
    }

    /// `3: Buy milk` — how one todo is named in messages.
    func label(_ todo: Todo) -> String {
        "\(todo.number): \(TerminalText.escaped(todo.title))"
    }

    func due(_ due: Due?) -> String {
        due?.localText(in: context.zone) ?? ""
    }

    /// The list table and its footer.
    func table(_ view: TodoView) -> String {
        guard !view.todos.isEmpty else {
            return catalog.text(.listEmpty)
        }
        // A project column only when a shown todo has a project.
        let projects = view.todos.contains { $0.project != nil }
        var columns = [
            Table.Column(title: catalog.text(.columnNumber), alignRight: true),
            Table.Column(title: catalog.text(.columnDone)),
            // Tags give up their room before the title does.
            Table.Column(title: catalog.text(.columnTitle), truncatable: true, minWidth: 10, shrinkOrder: 1),
            Table.Column(title: catalog.text(.columnTags), truncatable: true, minWidth: 4, dropOrder: 1),
            Table.Column(title: catalog.text(.columnPriority), dropOrder: 2),
            Table.Column(title: catalog.text(.columnDue), dropOrder: 3),
        ]
        if projects { columns.insert(Table.Column(title: catalog.text(.columnProject), truncatable: true, minWidth: 4, dropOrder: 1), at: 4) }
        // A column of what waits for what only when a shown todo waits or blocks.
        let links = !view.links.isEmpty
        if links { columns.append(Table.Column(title: catalog.text(.columnDeps), truncatable: true, minWidth: 5, dropOrder: 1)) }
        // Looked up once per table, not once per row.
        let priorities = priorityLabels
        let today = today
        var cells: [String] = []
        cells.reserveCapacity(view.todos.count * columns.count)
        for todo in view.todos {
            let title = todo.completed || todo.deleted ? style.dim(TerminalText.escaped(todo.title)) : TerminalText.escaped(todo.title)
            cells.append(String(todo.number))
            cells.append(marker(todo))
            cells.append(title)
            cells.append(TerminalText.escaped(todo.tags.count == 1 ? todo.tags[0] : todo.tags.joined(separator: " ")))
            if projects { cells.append(TerminalText.escaped(todo.project ?? "")) }
            cells.append(priorityCell(todo, labels: priorities))
            cells.append(dueCell(todo, today: today))
            if links { cells.append(view.links[todo.id].map(linksText) ?? "") }
        }
        var text = Table(columns: columns, cells: cells, ellipsis: context.settings.unicode ? "…" : "...").render(maxWidth: context.settings.width)
        text += "\n\n" + WordWrap.wrapped(footer(view), width: context.settings.width)
        return text
    }

    /// `after 2, 3; blocks 5`: the pending todos it waits for and those it blocks.
    func linksText(_ links: TodoLinks) -> String {
        var parts: [String] = []
        if !links.waitsFor.isEmpty { parts.append(catalog.text(.depsAfter, ["numbers": links.waitsFor.map(String.init).joined(separator: ", ")])) }
        if !links.blocks.isEmpty { parts.append(catalog.text(.depsBlocks, ["numbers": links.blocks.map(String.init).joined(separator: ", ")])) }
        return parts.joined(separator: "; ")
    }

    func footer(_ view: TodoView) -> String {
        var text = catalog.plural(.footerActive, count: view.active) + ", " + catalog.plural(.footerCompleted, count: view.completed)
        if view.waiting > 0 { text += ", " + catalog.plural(.footerWaiting, count: view.waiting) }
        if view.deleted > 0 {
            text += ", " + catalog.plural(.footerDeleted, count: view.deleted)
        }
        if view.todos.count < view.matched {
            text += " " + catalog.text(.footerShowing, ["shown": String(view.todos.count), "matched": String(view.matched)])
        }
        return text
    }

    /// Whether a live todo's due date or time has passed. A due date has passed once its day has
    /// ended, that is when it is before `today` (the local date of now, computed once per table).
    func isOverdue(_ todo: Todo, today: LocalDate) -> Bool {
        guard !todo.completed, !todo.deleted, let due = todo.due else { return false }
        return switch due {
        case .date(let date): date < today
        case .instant(let ms): ms <= context.now
        }
    }

    /// Today's date in the local time zone.
    var today: LocalDate { LocalDate.containing(context.now, in: context.zone) }

    /// The due date, in red on a terminal when it has passed (the date itself says so too).
    func dueCell(_ todo: Todo, today: LocalDate) -> String {
        isOverdue(todo, today: today) ? style.red(due(todo.due)) : due(todo.due)
    }

    /// The priority word, in bold yellow on a terminal when it is high (the word says so too).
    /// Every priority's label in the current language.
    var priorityLabels: [Priority: String] {
        Dictionary(uniqueKeysWithValues: Priority.allCases.map { ($0, catalog.text(priorityID($0))) })
    }

    func priorityCell(_ todo: Todo, labels: [Priority: String]) -> String {
        guard let priority = todo.priority, let text = labels[priority] else { return "" }
        return priority == .high && !todo.completed && !todo.deleted ? style.bold(style.yellow(text)) : text
    }

    func priorityID(_ priority: Priority) -> MessageID {
        switch priority {
        case .low: .priorityLow
        case .medium: .priorityMedium
        case .high: .priorityHigh
        }
    }

    /// The detail view of `show`, ending with the todo's history.
    /// `clock`: where a running interval's length ends (the `--as-of` instant; now by default);
    /// `numbers`: where the history finds the numbers of the todos an edit made it wait for.
    func detail(
        _ todo: Todo, history: [EventEnvelope], series: SeriesDetail? = nil, graph: TodoDependencies? = nil, clock: Int64? = nil,
        numbers: TodoNumbers = TodoNumbers()
    ) -> String {
        var rows: [(String, String)] = [
            (catalog.text(.fieldNumber), String(todo.number)),
            (catalog.text(.fieldID), todo.id),
            (catalog.text(.fieldTitle), TerminalText.escaped(todo.title)),
            (catalog.text(.fieldStatus), status(todo)),
            (catalog.text(.fieldTags), todo.tags.isEmpty ? "-" : TerminalText.escaped(todo.tags.joined(separator: " "))),
            (catalog.text(.fieldProject), todo.project.map(TerminalText.escaped) ?? "-"),
            (catalog.text(.fieldPriority), todo.priority == nil ? "-" : priorityCell(todo, labels: priorityLabels)),
            (catalog.text(.fieldDue), todo.due == nil ? "-" : dueCell(todo, today: today)),
            (catalog.text(.fieldNote), todo.note.map(TerminalText.escapedKeepingLines) ?? "-"),
            (catalog.text(.fieldCreated), time(todo.createdAt)),
            (catalog.text(.fieldUpdated), time(todo.updatedAt)),
        ]
        if let completedAt = todo.completedAt {
            rows.append((catalog.text(.fieldCompleted), time(completedAt)))
        }
        if let wait = todo.wait { rows.append((catalog.text(.showWait), due(wait))) }
        if let graph {
            // Every todo it waits for, done or not; and the pending ones waiting for it.
            let waits = todo.after.compactMap(graph.todo).map { "\($0.number) \(TerminalText.escaped($0.title))\($0.completed ? " [x]" : $0.deleted ? " [-]" : "")" }
            if !waits.isEmpty { rows.append((catalog.text(.fieldAfter), waits.joined(separator: ", "))) }
            let blocks = graph.blocking(todo).map { "\($0.number) \(TerminalText.escaped($0.title))" }
            if !blocks.isEmpty { rows.append((catalog.text(.fieldBlocks), blocks.joined(separator: ", "))) }
        }
        if let series { rows += seriesRows(series) }
        if let origin = todo.origin {
            let id: MessageID = origin.tool == .taskwarrior ? .originTaskwarrior : .originTodoTxt
            rows.append((catalog.text(.fieldOrigin), catalog.text(id, ["id": origin.id])))
        }
        let width = rows.map { TextWidth.of($0.0) }.max() ?? 0
        var lines = rows.map { TextWidth.pad($0.0, to: width, alignRight: false) + "  " + $0.1 }
        if !todo.annotations.isEmpty {
            // Each annotation with who wrote it: the actor of the event that added it.
            var authors: [String: String] = [:]
            for event in history where event.type == "todo.annotated" {
                if case .todoAnnotated(let annotation)? = try? EventCatalog.decode(event) { authors[annotation.id] = EventDescriber.who(event) }
            }
            lines.append("")
            lines.append(style.bold(catalog.text(.fieldAnnotations)))
            // Numbers and authors padded to one width, so the texts start in one column.
            let numberWidth = String(todo.annotations.count).count
            let whoWidth = todo.annotations.map { TextWidth.of(authors[$0.id] ?? "") }.max() ?? 0
            for (index, annotation) in todo.annotations.enumerated() {
                let number = TextWidth.pad(String(index + 1), to: numberWidth, alignRight: true)
                let who = whoWidth == 0 ? "" : "  " + TextWidth.pad(authors[annotation.id] ?? "", to: whoWidth, alignRight: false)
                lines.append("  \(number)  \(time(annotation.at))\(who)  \(TerminalText.escaped(annotation.text))")
            }
        }
        if !todo.intervals.isEmpty {
            lines.append("")
            lines.append(style.bold(catalog.text(.fieldTime)))
            lines += TimeText.intervalLines(todo, now: clock ?? context.now, zone: context.zone, catalog: catalog).map { "  " + $0 }
        }
        lines.append("")
        lines.append(style.bold(catalog.text(.fieldHistory)))
        let describer = EventDescriber(catalog: catalog, zone: context.zone, todoNumbers: numbers)
        for event in history {
            lines.append("  " + describer.historyLine(event))
        }
        return lines.joined(separator: "\n")
    }

    func status(_ todo: Todo) -> String {
        if todo.deleted { return catalog.text(.statusDeleted) }
        return catalog.text(todo.completed ? .statusCompleted : .statusActive)
    }

    func time(_ ms: Int64) -> String {
        Timestamp.formatLocal(ms, in: context.zone, withTime: true)
    }
}
