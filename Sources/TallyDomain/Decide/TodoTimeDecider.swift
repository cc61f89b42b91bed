import TallyEssentials

/// Annotations and time on a todo: `annotate`, `denotate`, `start`, `stop`.
extension Decider {
    static func decideTime(_ command: Command, state: ReadModel, context: DecisionContext, into builder: inout DecisionBuilder) throws(DomainError) {
        switch command {
        case .annotateTodo(let ref, let text):
            let todo = try liveTodos([ref], in: state)[0]
            let annotation = Annotation(id: context.makeID(), at: context.now, text: try Validation.annotation(text))
            guard todo.annotations.count < Annotation.maxPerTodo else {
                throw .invalid(.outsideLimits(reason: "a todo has at most \(Annotation.maxPerTodo) annotations"))
            }
            builder.affected.append(todo.id)
            builder.append(.todoAnnotated(annotation), to: todo.id)

        case .denotateTodo(let ref, let index):
            let todo = try liveTodos([ref], in: state)[0]
            guard let position = Int(index), position >= 1, position <= todo.annotations.count else {
                throw .invalid(.noSuchAnnotation(number: todo.number, index: index, count: todo.annotations.count))
            }
            builder.affected.append(todo.id)
            builder.append(.todoDenotated(id: todo.annotations[position - 1].id), to: todo.id)

        case .startTodos(let refs, let also, let at):
            let start = try instant(at, context: context)
            let todos = try liveTodos(refs, in: state)
            if let completed = todos.first(where: \.completed) { throw .invalid(.startCompleted(number: completed.number)) }
            if !also {
                let named = Set(todos.map(\.id))
                for other in state.todos where other.running != nil && !named.contains(other.id) {
                    builder.affected.append(other.id)
                    builder.append(.todoStopped(at: try stopInstant(start, of: other)), to: other.id)
                }
            }
            for todo in todos {
                builder.affected.append(todo.id)
                if let running = todo.running {
                    builder.notices.append(.alreadyRunning(number: todo.number, since: running.start))
                } else if let last = todo.intervals.last, let end = last.end, start < end {
                    throw .invalid(.badIntervalTime(at ?? Timestamp.format(start)))
                } else {
                    builder.append(.todoStarted(start: start, end: nil), to: todo.id)
                }
            }

        case .stopTodos(let refs, let at):
            let end = try instant(at, context: context)
            let todos = refs.isEmpty ? state.todos.filter { $0.running != nil } : try self.todos(refs, in: state)
            if todos.isEmpty { builder.notices.append(.nothingRunning) }
            for todo in todos {
                builder.affected.append(todo.id)
                guard todo.running != nil else {
                    builder.notices.append(.notRunning(number: todo.number))
                    continue
                }
                builder.append(.todoStopped(at: try stopInstant(end, of: todo)), to: todo.id)
            }

        default:
            preconditionFailure("not an annotation or time command: \(command)")
        }
    }

    /// `--at WHEN` as an instant (a day means its start), now when absent; never later than now.
    private static func instant(_ raw: String?, context: DecisionContext) throws(DomainError) -> Int64 {
        guard let raw else { return context.now }
        let instant = switch try Validation.due(raw, now: context.now, zone: context.zone) {
        case .instant(let ms): ms
        case .date(let date): Due.date(date).sortInstant(in: context.zone)
        }
        guard instant <= context.now else { throw .invalid(.badIntervalTime(raw)) }
        return instant
    }

    /// A stop at `end` of `todo`'s running interval: refused when it would end before it began.
    private static func stopInstant(_ end: Int64, of todo: Todo) throws(DomainError) -> Int64 {
        if let running = todo.running, end < running.start { throw .invalid(.badIntervalTime(Timestamp.format(end))) }
        return end
    }

    /// Completing or deleting a running todo stops it, in the same command (one undo step).
    static func stopFinished(state: ReadModel, context: DecisionContext, into builder: inout DecisionBuilder) {
        var stopped = Set<String>()
        for pending in builder.decision.events {
            switch pending.event {
            case .todoStopped: stopped.insert(pending.stream)
            default: break
            }
        }
        for pending in builder.decision.events {
            switch pending.event {
            case .todoCompleted, .todoDeleted:
                guard !stopped.contains(pending.stream), let running = state.todo(id: pending.stream)?.running else { continue }
                stopped.insert(pending.stream)
                builder.append(.todoStopped(at: max(context.now, running.start)), to: pending.stream)
            default: break
            }
        }
    }
}
