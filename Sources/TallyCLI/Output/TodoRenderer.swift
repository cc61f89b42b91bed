import Foundation
import TallyApp
import TallyDomain

/// Human output for todos: the list table, one-line confirmations and the detail view.
struct TodoRenderer {
    let context: CLIContext

    private var catalog: Catalog { context.catalog }
    private var style: Style { Style(color: context.settings.color) }

    /// The completed marker, readable without color.
    func marker(_ todo: Todo) -> String {
        if todo.deleted { return "[-]" }
        return todo.completed ? "[x]" : "[ ]"
    }

    /// `3: Buy milk` — how one todo is named in messages.
    func label(_ todo: Todo) -> String {
        "\(todo.number): \(todo.title)"
    }

    func due(_ due: Due?) -> String {
        switch due {
        case nil: ""
        case .date(let date)?: date.description
        case .instant(let ms)?: Timestamp.formatLocal(ms, in: context.zone, withTime: true)
        }
    }

    /// The list table and its footer.
    func table(_ view: TodoView) -> String {
        guard !view.todos.isEmpty else {
            return catalog.text(.listEmpty)
        }
        let columns = [
            Table.Column(title: catalog.text(.columnNumber), alignRight: true),
            Table.Column(title: catalog.text(.columnDone)),
            Table.Column(title: catalog.text(.columnTitle), truncatable: true, minWidth: 10),
            Table.Column(title: catalog.text(.columnTags), truncatable: true, minWidth: 4),
            Table.Column(title: catalog.text(.columnPriority)),
            Table.Column(title: catalog.text(.columnDue)),
        ]
        let rows = view.todos.map { todo -> [String] in
            let title = todo.completed || todo.deleted ? style.dim(todo.title) : todo.title
            return [
                String(todo.number), marker(todo), title, todo.tags.joined(separator: " "),
                todo.priority.map { catalog.text(priorityID($0)) } ?? "", due(todo.due),
            ]
        }
        var text = Table(columns: columns, rows: rows, ellipsis: context.settings.unicode ? "…" : "...").render(maxWidth: context.settings.width)
        text += "\n\n" + footer(view)
        return text
    }

    func footer(_ view: TodoView) -> String {
        var text = catalog.plural(.footerActive, count: view.active) + ", " + catalog.plural(.footerCompleted, count: view.completed)
        if view.todos.count < view.matched {
            text += " " + catalog.text(.footerShowing, ["shown": String(view.todos.count), "matched": String(view.matched)])
        }
        return text
    }

    func priorityID(_ priority: Priority) -> MessageID {
        switch priority {
        case .low: .priorityLow
        case .medium: .priorityMedium
        case .high: .priorityHigh
        }
    }

    /// The detail view of `show`, ending with the todo's history.
    func detail(_ todo: Todo, history: [EventEnvelope]) -> String {
        var rows: [(String, String)] = [
            (catalog.text(.fieldNumber), String(todo.number)),
            (catalog.text(.fieldID), todo.id),
            (catalog.text(.fieldTitle), todo.title),
            (catalog.text(.fieldStatus), status(todo)),
            (catalog.text(.fieldTags), todo.tags.isEmpty ? "-" : todo.tags.joined(separator: " ")),
            (catalog.text(.fieldPriority), todo.priority.map { catalog.text(priorityID($0)) } ?? "-"),
            (catalog.text(.fieldDue), todo.due.map { due($0) } ?? "-"),
            (catalog.text(.fieldNote), todo.note ?? "-"),
            (catalog.text(.fieldCreated), time(todo.createdAt)),
            (catalog.text(.fieldUpdated), time(todo.updatedAt)),
        ]
        if let completedAt = todo.completedAt {
            rows.append((catalog.text(.fieldCompleted), time(completedAt)))
        }
        if let origin = todo.origin {
            let id: MessageID = origin.tool == .taskwarrior ? .originTaskwarrior : .originTodoTxt
            rows.append((catalog.text(.fieldOrigin), catalog.text(id, ["id": origin.id])))
        }
        let width = rows.map { TextWidth.of($0.0) }.max() ?? 0
        var lines = rows.map { TextWidth.pad($0.0, to: width, alignRight: false) + "  " + $0.1 }
        lines.append("")
        lines.append(style.bold(catalog.text(.fieldHistory)))
        let describer = EventDescriber(catalog: catalog, zone: context.zone)
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
