
/// Turns a command into events against the current state, or rejects it. Pure.
public enum Decider {
    /// Decides a command. Events that would change nothing are not produced; a notice says so instead.
    public static func decide(_ command: Command, state: ReadModel, context: DecisionContext) throws(DomainError) -> Decision {
        var builder = DecisionBuilder(state: state)
        switch command {
        case .addTodo(var input):
            if input.fromContext, let determined = TodoContexts(json: state.filters[.todos]).narrowing?.determined {
                // What the active context's filter requires of a todo, it gives a new one (see `determined`).
                input.tags += determined.tags
                if input.project == nil { input.project = determined.project }
            }
            let fields = TodoFields(
                title: try Validation.title(input.title),
                tags: try Validation.tags(input.tags),
                priority: try input.priority.map { raw throws(DomainError) in try Validation.priority(raw) },
                due: try input.due.map { raw throws(DomainError) in try Validation.due(raw, now: context.now, zone: context.zone) },
                note: try input.note.flatMap { raw throws(DomainError) in try Validation.note(raw) },
                wait: try input.wait.map { raw throws(DomainError) in try Validation.due(raw, now: context.now, zone: context.zone) },
                // `--project none`: no project, also where the active context would give one.
                project: try input.project.flatMap { raw throws(DomainError) in isNone(raw) ? nil : try Validation.project(raw) },
                after: try liveTodos(input.after, in: state).map(\.id)
            )
            guard fields.after.count <= TodoDependencies.maxAfter else { throw .invalid(.tooManyDependencies(max: TodoDependencies.maxAfter)) }
            if let recurrence = input.recurrence {
                try decideRecurringAdd(fields, recurrence, context: context, into: &builder)
                break
            }
            let id = context.makeID()
            builder.append(.todoCreated(fields), to: id)
            builder.affected.append(id)

        case .toggleTodos(let refs):
            for todo in try liveTodos(refs, in: state) {
                builder.affected.append(todo.id)
                builder.append(todo.completed ? .todoReopened : .todoCompleted, to: todo.id)
                if !todo.completed { appendNextInstance(after: todo, context: context, into: &builder) }
            }

        case .toggleAllTodos:
            let live = state.todos.filter { !$0.deleted }
            guard !live.isEmpty else {
                builder.notices.append(.noTodos)
                break
            }
            let active = live.filter { !$0.completed }
            let (targets, event): ([Todo], DomainEvent) = active.isEmpty ? (live, .todoReopened) : (active, .todoCompleted)
            for todo in targets {
                builder.affected.append(todo.id)
                builder.append(event, to: todo.id)
                if event == .todoCompleted { appendNextInstance(after: todo, context: context, into: &builder) }
            }

        case .completeTodos(let refs):
            for todo in try liveTodos(refs, in: state) {
                builder.affected.append(todo.id)
                if todo.completed {
                    builder.notices.append(.alreadyCompleted(number: todo.number))
                } else {
                    builder.append(.todoCompleted, to: todo.id)
                    appendNextInstance(after: todo, context: context, into: &builder)
                }
            }

        case .reopenTodos(let refs):
            for todo in try liveTodos(refs, in: state) {
                builder.affected.append(todo.id)
                if todo.completed {
                    builder.append(.todoReopened, to: todo.id)
                } else {
                    builder.notices.append(.alreadyActive(number: todo.number))
                }
            }

        case .editTodo(let ref, let input):
            let todo = try liveTodos([ref], in: state)[0]
            builder.affected.append(todo.id)
            var changes = try changes(input, to: todo, context: context)
            changes.after = try afterChanges(input, to: todo, in: state)
            if input.series { (changes.title, changes.tags, changes.priority, changes.note) = (nil, nil, nil, nil) }
            let before = builder.decision.events.count
            try decideSeriesEdit(input, todo: todo, context: context, into: &builder)
            if changes.isEmpty && builder.decision.events.count == before {
                builder.notices.append(.unchanged(number: todo.number))
            } else if !changes.isEmpty {
                builder.append(.todoEdited(changes), to: todo.id)
            }

        case .deleteTodos(let refs):
            for todo in try todos(refs, in: state) {
                builder.affected.append(todo.id)
                if todo.deleted {
                    builder.notices.append(.alreadyDeleted(number: todo.number))
                } else {
                    builder.append(.todoDeleted, to: todo.id)
                    if !todo.completed { appendNextInstance(after: todo, context: context, into: &builder) }
                }
            }

        case .endSeries(let refs):
            try decideEndSeries(try todos(refs, in: state), into: &builder)

        case .deleteCompletedTodos:
            let completed = state.todos.filter { $0.completed && !$0.deleted }
            if completed.isEmpty { builder.notices.append(.noCompletedTodos) }
            for todo in completed {
                builder.affected.append(todo.id)
                builder.append(.todoDeleted, to: todo.id)
            }

        case .saveTodoFilter(let query):
            // The saved view is the context `default`, made active.
            var contexts = TodoContexts(json: state.filters[.todos])
            let view = try validated(query, context: context)
            if contexts.views[TodoContexts.defaultName] == view, contexts.active == TodoContexts.defaultName {
                builder.notices.append(.filterUnchanged(.todos))
            } else {
                contexts.views[TodoContexts.defaultName] = view
                contexts.active = TodoContexts.defaultName
                try saveContexts(contexts, into: &builder)
            }

        case .defineContext, .useContext, .deleteContext:
            try decideContext(command, state: state, context: context, into: &builder)

        case .logRecord, .editRecord, .deleteRecords, .saveRecordFilter:
            try decideRecord(command, state: state, context: context, into: &builder)

        case .importTodos(let items, let series, let unreadable, let earlier, let restoreDeleted):
            decideImportedSeries(series, unreadable: unreadable, earlier: earlier, state: state, into: &builder)
            try decideImport(items, earlier: earlier, restoreDeleted: restoreDeleted, state: state, now: context.now, into: &builder)

        case .restoreTodos, .restoreRecords:
            try decideRestore(command, state: state, into: &builder)
        case .importRecords(let items):
            try decideRecordImport(items, state: state, into: &builder)

        case .reanalyzeRecords(let items):
            try decideReanalysis(items, state: state, into: &builder)

        case .setAthlete(let input):
            try decideAthlete(input, state: state, context: context, into: &builder)

        case .addGear(let input):
            try decideAddGear(input, state: state, context: context, into: &builder)

        case .editGear(let ref, let input):
            try decideEditGear(ref, input, state: state, into: &builder)

        case .setGoal(let input):
            try decideSetGoal(input, state: state, context: context, into: &builder)

        case .removeGoal(let key):
            guard state.goals[key] != nil else { throw .noGoal(key) }
            builder.append(.goalRemoved(key), to: GoalBook.stream)
        case .resetFilter(.todos):
            var contexts = TodoContexts(json: state.filters[.todos])
            if contexts.views[TodoContexts.defaultName] == nil {
                builder.notices.append(.noSavedFilter(.todos))
            } else {
                contexts.views[TodoContexts.defaultName] = nil
                if contexts.active == TodoContexts.defaultName { contexts.active = nil }
                try saveContexts(contexts, into: &builder)
            }

        case .resetFilter(let scope):
            if state.filters[scope] == nil {
                builder.notices.append(.noSavedFilter(scope))
            } else {
                builder.append(.filterReset(scope: scope), to: scope.stream)
            }

        case .annotateTodo, .denotateTodo, .startTodos, .stopTodos:
            try decideTime(command, state: state, context: context, into: &builder)
        }
        stopFinished(state: state, context: context, into: &builder)
        dependencyNotices(state: state, into: &builder)
        try checkLimits(builder.decision)
        return builder.decision
    }

    /// The new list of todos `todo` waits for after `--after` and `--no-after`; nil when it stays.
    /// Refuses the todo itself, more than `TodoDependencies.maxAfter` and a cycle (named).
    private static func afterChanges(_ input: TodoEditInput, to todo: Todo, in state: ReadModel) throws(DomainError) -> [String]? {
        guard !input.addAfter.isEmpty || !input.removeAfter.isEmpty else { return nil }
        var after = todo.after
        for blocker in try liveTodos(input.addAfter, in: state) {
            guard blocker.id != todo.id else { throw .invalid(.waitsForItself(number: todo.number)) }
            if !after.contains(blocker.id) { after.append(blocker.id) }
        }
        for blocker in try todos(input.removeAfter, in: state) { after.removeAll { $0 == blocker.id } }
        guard after != todo.after else { return nil }
        guard after.count <= TodoDependencies.maxAfter else { throw .invalid(.tooManyDependencies(max: TodoDependencies.maxAfter)) }
        if let cycle = TodoDependencies(state).cycle(from: todo.id, after: after) {
            throw .invalid(.dependencyCycle(cycle.map { state.todo(id: $0)?.number ?? 0 }))
        }
        return after
    }

    /// Notices for todos this decision unblocks: completing or deleting the last pending todo one
    /// waits for makes it ready; deleting a todo says which it no longer blocks.
    private static func dependencyNotices(state: ReadModel, into builder: inout DecisionBuilder) {
        guard !state.todos.counts.linked.isEmpty else { return }
        var finished: [String] = []
        var deleted: [String] = []
        for pending in builder.decision.events {
            switch pending.event {
            case .todoCompleted: finished.append(pending.stream)
            case .todoDeleted:
                finished.append(pending.stream)
                deleted.append(pending.stream)
            default: break
            }
        }
        guard !finished.isEmpty else { return }
        let graph = TodoDependencies(state)
        let gone = Set(finished)
        for id in deleted {
            guard let todo = state.todo(id: id) else { continue }
            let dependents = graph.blocking(todo).filter { !gone.contains($0.id) }
            if !dependents.isEmpty { builder.notices.append(.noLongerBlocks(number: todo.number, dependents: dependents.map(\.number))) }
        }
        var announced: Set<String> = []
        for id in finished {
            guard let todo = state.todo(id: id) else { continue }
            for dependent in graph.blocking(todo) where !gone.contains(dependent.id) && !announced.contains(dependent.id) {
                if graph.blockers(of: dependent).allSatisfy({ gone.contains($0.id) }) {
                    announced.insert(dependent.id)
                    builder.notices.append(.becameReady(number: dependent.number, title: dependent.title))
                }
            }
        }
    }

    /// Every event a command would append obeys the limits every door shares (`EventRules`): the last
    /// word whatever the command, so nothing a door accepts can be refused when an export is imported.
    static func checkLimits(_ decision: Decision) throws(DomainError) {
        for pending in decision.events {
            do throws(EventLineError) {
                try EventRules.checkPayload(pending.event)
            } catch {
                throw .invalid(.outsideLimits(reason: error.reason))
            }
        }
    }

    /// Checks the parts of a query the user typed freely.
    public static func validated(_ query: TodoQuery, context: DecisionContext) throws(DomainError) -> TodoQuery {
        var query = query
        query.tags = try Validation.tags(query.tags)
        if let raw = query.dueBefore { query.dueBefore = try Validation.whenBound(raw, now: context.now, zone: context.zone) }
        if let raw = query.dueAfter { query.dueAfter = try Validation.whenBound(raw, now: context.now, zone: context.zone) }
        if let raw = query.search { query.search = try Validation.search(raw) }
        if let raw = query.project, !isNone(raw) { query.project = try Validation.project(raw) }
        if let limit = query.limit, limit < 1 { throw .invalid(.invalidLimit(String(limit))) }
        if let expression = query.expression { _ = try FilterProgram(expression, now: context.now, zone: context.zone) }
        return query
    }

    /// Resolves REFs, dropping repeats; deleted todos are allowed.
    static func todos(_ refs: [String], in state: ReadModel) throws(DomainError) -> [Todo] {
        var result: [Todo] = []
        for ref in refs {
            let todo = try ReferenceResolver.todo(ref, in: state)
            if !result.contains(where: { $0.id == todo.id }) { result.append(todo) }
        }
        return result
    }

    /// Resolves REFs that must name todos which are not deleted.
    static func liveTodos(_ refs: [String], in state: ReadModel) throws(DomainError) -> [Todo] {
        let result = try todos(refs, in: state)
        if let deleted = result.first(where: \.deleted) { throw .itemDeleted(.todo, number: deleted.number) }
        return result
    }

    /// The fields an edit really changes compared with the todo as it is.
    private static func changes(_ input: TodoEditInput, to todo: Todo, context: DecisionContext) throws(DomainError) -> TodoChanges {
        var changes = TodoChanges()
        if let raw = input.title {
            let title = try Validation.title(raw)
            if title != todo.title { changes.title = title }
        }
        if !input.tagChanges.isEmpty {
            let tags = try edited(todo.tags, input.tagChanges)
            if tags != todo.tags { changes.tags = tags }
        }
        if let raw = input.priority {
            let priority = isNone(raw) ? nil : try Validation.priority(raw)
            if priority != todo.priority { changes.priority = .some(priority) }
        }
        if let raw = input.due {
            let due = isNone(raw) ? nil : try Validation.due(raw, now: context.now, zone: context.zone)
            if due != todo.due { changes.due = .some(due) }
        }
        if let raw = input.note {
            let note = isNone(raw) ? nil : try Validation.note(raw)
            if note != todo.note { changes.note = .some(note) }
        }
        if let raw = input.wait {
            let wait = isNone(raw) ? nil : try Validation.due(raw, now: context.now, zone: context.zone)
            if wait != todo.wait { changes.wait = .some(wait) }
        }
        if let raw = input.project {
            let project = isNone(raw) ? nil : try Validation.project(raw)
            if project != todo.project { changes.project = .some(project) }
        }
        return changes
    }

    /// `tags` after `+t` / `t` (add) and `-t` (remove) changes, checked.
    static func edited(_ tags: [String], _ tagChanges: [String]) throws(DomainError) -> [String] {
        var tags = tags
        for change in tagChanges {
            if change.hasPrefix("-") {
                let tag = try Validation.tag(String(change.dropFirst()))
                tags.removeAll { $0 == tag }
            } else {
                let tag = try Validation.tag(change.hasPrefix("+") ? String(change.dropFirst()) : change)
                if !tags.contains(tag) { tags.append(tag) }
            }
        }
        guard tags.count <= Validation.maxTags else { throw .invalid(.tooManyTags(max: Validation.maxTags)) }
        return tags
    }

    static func isNone(_ raw: String) -> Bool {
        raw.lowercased() == "none"
    }
}

/// Accumulates a decision, numbering each stream's new events after its current version.
struct DecisionBuilder {
    let state: ReadModel
    var decision = Decision()
    private var nextVersions: [String: Int] = [:]

    init(state: ReadModel) {
        self.state = state
    }

    // `_modify` appends in place; a get/set pair would copy the array on every append (O(n²) for `delete --completed`).
    var affected: [String] {
        get { decision.affected }
        _modify { yield &decision.affected }
    }

    var notices: [Notice] {
        get { decision.notices }
        _modify { yield &decision.notices }
    }

    /// Appends `event` to `stream`; `id` and `recordedAt` fix what the dispatcher would otherwise choose.
    mutating func append(_ event: DomainEvent, to stream: String, id: String? = nil, recordedAt: Int64? = nil) {
        let version = nextVersions[stream] ?? state.version(of: stream) + 1
        nextVersions[stream] = version + 1
        decision.events.append(PendingEvent(stream: stream, version: version, event: event, id: id, recordedAt: recordedAt))
    }
}

// Contexts of todos: named filters kept in the todos' saved-view object (`TodoContexts`).
extension Decider {
    static func decideContext(_ command: Command, state: ReadModel, context: DecisionContext, into builder: inout DecisionBuilder) throws(DomainError) {
        var contexts = TodoContexts(json: state.filters[.todos])
        let before = contexts
        switch command {
        case .defineContext(let raw, let query):
            guard let name = TodoContexts.validName(raw) else { throw .invalid(.invalidContextName(raw)) }
            if contexts.views[name] == nil, contexts.views.count >= TodoContexts.maxContexts {
                throw .invalid(.tooManyContexts(max: TodoContexts.maxContexts))
            }
            contexts.views[name] = try validated(query, context: context)
            if contexts == before { builder.notices.append(.contextUnchanged(name)) }
        case .useContext(let raw):
            if let raw {
                let name = TodoContexts.validName(raw) ?? raw
                guard contexts.views[name] != nil else { throw .invalid(.unknownContext(raw)) }
                contexts.active = name
            } else {
                contexts.active = nil
            }
            if contexts == before { builder.notices.append(.contextUnchanged(contexts.active)) }
        case .deleteContext(let raw):
            let name = TodoContexts.validName(raw) ?? raw
            guard contexts.views[name] != nil else { throw .invalid(.unknownContext(raw)) }
            contexts.views[name] = nil
            if contexts.active == name { contexts.active = nil }
        default:
            return
        }
        if contexts != before { try saveContexts(contexts, into: &builder) }
    }

    /// Appends the contexts as the todos' saved view (a reset when none is left).
    static func saveContexts(_ contexts: TodoContexts, into builder: inout DecisionBuilder) throws(DomainError) {
        if let object = contexts.json {
            builder.append(.filterSaved(scope: .todos, filter: object), to: FilterScope.todos.stream)
        } else {
            builder.append(.filterReset(scope: .todos), to: FilterScope.todos.stream)
        }
    }
}
