
/// The restore half of the decider: deleted todos and records come back, keeping their number.
extension Decider {
    static func decideRestore(_ command: Command, state: ReadModel, into builder: inout DecisionBuilder) throws(DomainError) {
        switch command {
        case .restoreTodos(let refs):
            try restore(refs, into: &builder) { ref throws(DomainError) in
                let todo = try ReferenceResolver.todo(ref, in: state)
                return (todo.id, todo.deleted, .todoRestored, .notDeleted(number: todo.number))
            }
        case .restoreRecords(let refs):
            // A leg of a multisport activity comes back with its whole activity (the deleted legs).
            var seen: Set<String> = []
            for ref in refs {
                let named = try ReferenceResolver.record(ref, in: state)
                for record in state.legs(of: named) where seen.insert(record.id).inserted {
                    if record.deleted {
                        builder.affected.append(record.id)
                        builder.append(.recordRestored, to: record.id)
                    } else if record.id == named.id {
                        builder.affected.append(record.id)
                        builder.notices.append(.recordNotDeleted(number: record.number))
                    }
                }
            }
        default:
            preconditionFailure("not a restore command: \(command)")
        }
    }

    /// Appends the restore event for each deleted item and a notice for the others, once per item;
    /// an unknown REF refuses the whole command.
    private static func restore(
        _ refs: [String], into builder: inout DecisionBuilder,
        _ resolve: (String) throws(DomainError) -> (id: String, deleted: Bool, event: DomainEvent, notice: Notice)
    ) throws(DomainError) {
        var seen: Set<String> = []
        for ref in refs {
            let item = try resolve(ref)
            guard seen.insert(item.id).inserted else { continue }
            builder.affected.append(item.id)
            if item.deleted {
                builder.append(item.event, to: item.id)
            } else {
                builder.notices.append(item.notice)
            }
        }
    }
}
