import TallyApp
import TallyDomain

/// Prints what a mutating todo command did: confirmations and notices, or the affected objects as JSON.
struct MutationPrinter {
    let context: CLIContext

    func print(_ outcome: CommandOutcome, single: Bool = false) {
        let affected = outcome.decision.affected.compactMap { outcome.state.todo(id: $0) }
        if context.json {
            if single, let todo = affected.first {
                context.printJSON(JSONShapes.todo(todo))
            } else {
                context.printJSON(.array(affected.map(JSONShapes.todo)))
            }
            for notice in outcome.decision.notices {
                context.console.errorLine(NoticeText.text(notice, context.catalog))
            }
            return
        }
        let renderer = TodoRenderer(context: context)
        let describer = EventDescriber(catalog: context.catalog, zone: context.zone)
        for event in outcome.appended {
            guard let todo = outcome.state.todo(id: event.stream) else {
                context.console.line(describer.summary(event))
                continue
            }
            let label = renderer.label(todo)
            let id: MessageID = switch event.type {
            case "todo.created": .confirmAdded
            case "todo.completed": .confirmCompleted
            case "todo.reopened": .confirmReopened
            case "todo.deleted": .confirmDeleted
            case "todo.restored": .confirmRestored
            default: .confirmEdited
            }
            context.console.line(context.catalog.text(id, ["label": label, "changes": describer.summary(event)]))
        }
        for notice in outcome.decision.notices {
            context.console.line(NoticeText.text(notice, context.catalog))
        }
    }
}

/// Words for the notices of no-op commands.
enum NoticeText {
    static func text(_ notice: Notice, _ catalog: Catalog) -> String {
        switch notice {
        case .alreadyCompleted(let number): catalog.text(.noticeAlreadyCompleted, ["number": String(number)])
        case .alreadyActive(let number): catalog.text(.noticeAlreadyActive, ["number": String(number)])
        case .alreadyDeleted(let number): catalog.text(.noticeAlreadyDeleted, ["number": String(number)])
        case .unchanged(let number): catalog.text(.noticeUnchanged, ["number": String(number)])
        case .noTodos: catalog.text(.noticeNoTodos)
        case .noCompletedTodos: catalog.text(.noticeNoCompletedTodos)
        case .filterUnchanged(let scope): catalog.text(.noticeFilterUnchanged, ["scope": scope.rawValue])
        case .noSavedFilter(let scope): catalog.text(.noticeNoSavedFilter, ["scope": scope.rawValue])
        }
    }
}
