/// The restore half of the decider: deleted todos and records come back, keeping their number.
extension Decider {
    static func decideRestore(_ command: Command, state: ReadModel, into builder: inout DecisionBuilder) throws(DomainError) {
        var seen: Set<String> = []
        switch command {
        case .restoreTodos(let refs):
            for ref in refs {
                let todo = try ReferenceResolver.todo(ref, in: state)
                guard seen.insert(todo.id).inserted else { continue }
                builder.affected.append(todo.id)
                if todo.deleted {
                    builder.append(.todoRestored, to: todo.id)
                } else {
                    builder.notices.append(.notDeleted(number: todo.number))
                }
            }
        case .restoreRecords(let refs):
            for ref in refs {
                let record = try ReferenceResolver.record(ref, in: state)
                guard seen.insert(record.id).inserted else { continue }
                builder.affected.append(record.id)
                if record.deleted {
                    builder.append(.recordRestored, to: record.id)
                } else {
                    builder.notices.append(.recordNotDeleted(number: record.number))
                }
            }
        default:
            preconditionFailure("not a restore command: \(command)")
        }
    }
}
