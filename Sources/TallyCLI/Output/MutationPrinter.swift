import TallyEngine
import TallyDomain
import TallyEssentials

/// Prints what a mutating command did: confirmations and notices, or the affected objects as JSON.
struct MutationPrinter {
    let context: CLIContext

    /// The JSON object of an affected todo or record.
    static func json(_ id: String, in state: ReadModel) -> JSON? {
        if let todo = state.todo(id: id) { return JSONShapes.todo(todo) }
        return state.record(id: id).map(JSONShapes.record)
    }

    /// How long the interval a `todo.stopped` closed lasted.
    static func stoppedLength(_ event: EventEnvelope, _ state: ReadModel) -> String {
        guard case .todoStopped(let at)? = try? EventCatalog.decode(event),
              let interval = state.todo(id: event.stream)?.intervals.last(where: { $0.end == max(at, $0.start) })
        else { return "" }
        return TimeText.length(interval.duration(now: at))
    }

    func print(_ outcome: CommandOutcome, single: Bool = false) {
        let affected = outcome.decision.affected.compactMap { Self.json($0, in: outcome.state) }
        if context.json {
            if single, let object = affected.first {
                context.printJSON(object)
            } else {
                context.printJSON(.array(affected))
            }
            for notice in outcome.decision.notices {
                context.console.errorLine(NoticeText.text(notice, context.catalog, zone: context.zone))
            }
            return
        }
        let describer = EventDescriber(
            catalog: context.catalog, zone: context.zone, gearNames: GearText.names(outcome.state), todoNumbers: TodoNumbers(outcome.state)
        )
        // Events of streams that are not items (a series' rule) follow the items they belong to.
        var following: [String] = []
        for event in outcome.appended {
            let label: String
            if let todo = outcome.state.todo(id: event.stream) {
                label = TodoRenderer(context: context).label(todo)
            } else if let record = outcome.state.record(id: event.stream) {
                label = RecordRenderer(context: context).label(record)
            } else {
                following.append("  " + describer.summary(event))
                continue
            }
            let startsSeries = outcome.appended.contains { $0.type == "series.started" }
            let id: MessageID = switch event.type {
            case "todo.created" where outcome.state.todo(id: event.stream)?.series != nil && !startsSeries: .confirmNextInstance
            case "todo.created": .confirmAdded
            case "record.logged": .confirmLogged
            case "todo.completed": .confirmCompleted
            case "todo.reopened": .confirmReopened
            case "todo.deleted", "record.deleted": .confirmDeleted
            case "todo.restored", "record.restored": .confirmRestored
            case "todo.annotated": .confirmAnnotated
            case "todo.denotated": .confirmDenotated
            case "todo.started": .confirmStarted
            case "todo.stopped": .confirmStopped
            default: .confirmEdited
            }
            let due = outcome.state.todo(id: event.stream)?.due.map { TodoRenderer(context: context).due($0) } ?? ""
            let length = id == .confirmStopped ? Self.stoppedLength(event, outcome.state) : ""
            context.console.line(context.catalog.text(id, ["label": label, "changes": describer.summary(event), "due": due, "length": length]))
        }
        for line in following { context.console.line(line) }
        for notice in outcome.decision.notices {
            context.console.line(NoticeText.text(notice, context.catalog, zone: context.zone))
        }
    }
}

/// Words for the notices of no-op commands.
enum NoticeText {
    static func text(_ notice: Notice, _ catalog: Catalog, zone: Zone = .utc) -> String {
        switch notice {
        case .alreadyCompleted(let number): catalog.text(.noticeAlreadyCompleted, ["number": String(number)])
        case .alreadyActive(let number): catalog.text(.noticeAlreadyActive, ["number": String(number)])
        case .alreadyDeleted(let number): catalog.text(.noticeAlreadyDeleted, ["number": String(number)])
        case .unchanged(let number): catalog.text(.noticeUnchanged, ["number": String(number)])
        case .recordUnchanged(let number): catalog.text(.noticeRecordUnchanged, ["number": String(number)])
        case .recordAlreadyDeleted(let number): catalog.text(.noticeRecordAlreadyDeleted, ["number": String(number)])
        case .noTodos: catalog.text(.noticeNoTodos)
        case .noCompletedTodos: catalog.text(.noticeNoCompletedTodos)
        case .filterUnchanged(let scope): catalog.text(.noticeFilterUnchanged, ["scope": scope.rawValue])
        case .noSavedFilter(let scope): catalog.text(.noticeNoSavedFilter, ["scope": scope.rawValue])
        case .contextUnchanged(let name): name.map { catalog.text(.noticeContextUnchanged, ["name": $0]) } ?? catalog.text(.noticeNoContextUnchanged)
        case .alreadyImported(let source): catalog.text(.noticeAlreadyImported, ["source": ForeignImport.label(source, catalog)])
        case .notDeleted(let number): catalog.text(.noticeNotDeleted, ["number": String(number)])
        case .recordNotDeleted(let number): catalog.text(.noticeRecordNotDeleted, ["number": String(number)])
        case .recordAlreadyImported(let id): catalog.text(.noticeRecordAlreadyImported, ["id": String(id.prefix(8))])
        case .athleteUnchanged: catalog.text(.noticeAthleteUnchanged)
        case .goalUnchanged: catalog.text(.noticeGoalUnchanged)
        case .gearUnchanged(let name): catalog.text(.noticeGearUnchanged, ["name": TerminalText.escaped(name)])
        case .becameReady(let number, let title): catalog.text(.noticeBecameReady, ["number": String(number), "title": title])
        case .noLongerBlocks(let number, let dependents):
            catalog.text(.noticeNoLongerBlocks, ["number": String(number), "dependents": dependents.map(String.init).joined(separator: ", ")])
        case .recordImportedWhole(let number): catalog.text(.noticeRecordImportedWhole, ["number": String(number)])
        case .alreadyRunning(let number, let since):
            catalog.text(.noticeAlreadyRunning, ["number": String(number), "since": Timestamp.formatLocal(since, in: zone, withTime: true)])
        case .notRunning(let number): catalog.text(.noticeNotRunning, ["number": String(number)])
        case .nothingRunning: catalog.text(.noticeNothingRunning)
        case .importUpdated(let source, let number, let changes):
            catalog.text(.importUpdatedLine, ["source": ForeignImport.label(source, catalog), "number": String(number), "changes": ForeignImport.words(changes, catalog)])
        case .importKeptDeleted(let source, let number, let open):
            ForeignImport.keptDeletedLine(source: source, number: number, open: open, catalog)
        case .importSeriesUpdated(let source, let open, let changes):
            ForeignImport.seriesLine(source: source, open: open, changes: changes, catalog)
        case .importLegacyLeftAlone(let source, let number):
            catalog.text(.importLegacyLine, ["source": ForeignImport.label(source, catalog), "number": String(number)])
        case .importSeriesRefused(let source, let reason):
            catalog.text(.importIssueLine, ["source": ForeignImport.label(source, catalog), "reason": ForeignImport.refusal(reason, catalog, zone: zone)])
        }
    }
}
