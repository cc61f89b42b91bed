import TallyDomain

/// What one import from another tool did.
public struct TodoImportOutcome: Sendable {
    public var outcome: CommandOutcome
    /// todo.txt lines whose text changed since the last import, found by their title (line → todo number).
    public var matchedLines: [ImportSource: Int]
}

extension Dispatcher {
    /// Imports `batch` as one command; todos imported before take what the source changed since.
    ///
    /// Inside the write lock, the events of each todo the batch names that is already in tally are
    /// read, so the decision knows what the imports so far made of it (`ImportBaseline`). For a todo.txt
    /// file, a line whose exact text was never imported is matched to a todo imported from a todo.txt
    /// line before, when exactly one such todo not named by another line had the same title and
    /// (when both say) the same creation day: `todo.sh do` and `pri` rewrite a line, and the title (the
    /// text without the priority, dates, `due:`, `t:`, `pri:` and `rec:`) is what is left of it. A done
    /// line without a priority keeps the one the line had (`todo.sh do` removes it).
    /// - Complexity: one stream read per todo the batch names that exists, plus, for todo.txt lines
    ///   that changed, one per todo.txt todo not named by the file.
    public func importTodos(_ batch: ImportBatch, restoreDeleted: Bool) throws -> TodoImportOutcome {
        var matched: [ImportSource: Int] = [:]
        let outcome = try execute { state, _ in
            var todos = batch.todos
            var earlier: [String: ImportBaseline] = [:]
            let history = HistoryMarkers(try log.events(inStream: HistoryStream.name))
            func baseline(_ stream: String) throws -> ImportBaseline {
                if let known = earlier[stream] { return known }
                let found = ImportBaseline.fold(stream: stream, events: try log.events(inStream: stream), history: history)
                earlier[stream] = found
                return found
            }
            // A todo that already is what the source says needs no history: nothing can change it.
            for item in todos {
                guard let todo = state.todo(id: item.stream), !Self.agrees(todo, item) else { continue }
                _ = try baseline(item.stream)
            }
            for item in batch.series {
                guard let series = state.series[item.stream], series.ended || series.fields != item.fields else { continue }
                _ = try baseline(item.stream)
            }
            if todos.contains(where: { $0.fields.origin?.tool == .todotxt && state.todo(id: $0.stream) == nil }) {
                matched = try matchChangedLines(&todos, state: state, baseline: baseline)
            }
            return try Decider.decide(.importTodos(todos, series: batch.series, unreadable: batch.unreadableRules, earlier: earlier, restoreDeleted: restoreDeleted), state: state, context: environment.decisionContext)
        }
        return TodoImportOutcome(outcome: outcome, matchedLines: matched)
    }

    /// True when `todo` has every field and the state `item` brings: a re-import leaves it alone.
    static func agrees(_ todo: Todo, _ item: ImportedTodo) -> Bool {
        let fields = item.fields
        let state = switch item.status {
        case .deleted: todo.deleted
        case .completed: todo.completed && !todo.deleted
        case .pending: !todo.completed && !todo.deleted
        }
        // Its annotations are the source's, by date and text, and its interval is the source's start.
        let annotations = todo.annotations.count == item.annotations.count && zip(todo.annotations, item.annotations).allSatisfy { have, source in
            have.text == source.text && (source.at ?? fields.origin?.createdAt).map { $0 == have.at } != false
        }
        let interval = item.started.map { start in todo.intervals.contains { $0.start == start } } ?? (todo.running == nil)
        return state && annotations && interval && todo.title == fields.title && todo.tags == fields.tags && todo.priority == fields.priority && todo.due == fields.due
            && todo.note == fields.note && todo.wait == fields.wait && todo.project == fields.project && todo.after == fields.after
    }

    /// Points todo.txt items whose line is new to the todo an earlier line became (see `importTodos`).
    private func matchChangedLines(
        _ todos: inout [ImportedTodo], state: ReadModel, baseline: (String) throws -> ImportBaseline
    ) throws -> [ImportSource: Int] {
        let named = Set(todos.map(\.stream))
        // Todos from todo.txt lines this file does not have word for word, by the title they were imported with.
        var byTitle: [String: [(todo: Todo, created: Int64?, priority: Priority?)]] = [:]
        for position in 0..<state.todos.count {
            let todo = state.todo(at: position)
            guard !named.contains(todo.id), let origin = todo.origin, origin.tool == .todotxt else { continue }
            guard let fields = try baseline(todo.id).fields else { continue }
            byTitle[fields.title, default: []].append((todo, origin.createdAt, fields.priority))
        }
        guard !byTitle.isEmpty else { return [:] }
        var newByTitle: [String: [Int]] = [:]
        for (index, item) in todos.enumerated() where item.fields.origin?.tool == .todotxt && state.todo(id: item.stream) == nil {
            newByTitle[item.fields.title, default: []].append(index)
        }
        var matched: [ImportSource: Int] = [:]
        for (title, indexes) in newByTitle {
            guard indexes.count == 1, let candidates = byTitle[title], candidates.count == 1 else { continue }
            let index = indexes[0]
            let candidate = candidates[0]
            let created = todos[index].fields.origin?.createdAt
            if let created, let before = candidate.created, created != before, todos[index].status != .completed { continue }
            todos[index].stream = candidate.todo.id
            // The todo keeps where it was first read from.
            todos[index].fields.origin = candidate.todo.origin
            // `todo.sh do` drops the priority of the line it marks done: that is the format, not a change.
            if todos[index].status == .completed, todos[index].fields.priority == nil { todos[index].fields.priority = candidate.priority }
            matched[todos[index].source] = candidate.todo.number
        }
        return matched
    }
}
