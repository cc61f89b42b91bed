
extension Command {
    /// True when `decision` rests only on the state of the streams it appends to, so that checking
    /// each event's version against its stream when the log orders it is all the concurrency
    /// control it needs: such a command may be decided without the write lock and staged
    /// (`StagedAppends`); if a stream moved on meanwhile, it is decided again under the lock.
    ///
    /// A new todo without dependencies or recurrence reads nothing; completing or reopening a todo
    /// outside a series reads only that todo (a series' next instance depends on its other
    /// instances, so those commands take the lock).
    public func decidesOnItsOwnStreams(_ decision: Decision, state: ReadModel) -> Bool {
        switch self {
        case .addTodo(let input):
            return input.after.isEmpty && input.recurrence == nil
        case .completeTodos, .reopenTodos:
            return decision.events.allSatisfy { pending in state.todo(id: pending.stream).map { $0.series == nil } ?? false }
        default:
            return false
        }
    }
}
