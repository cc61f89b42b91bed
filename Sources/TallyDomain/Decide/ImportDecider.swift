/// The import half of the decider.
extension Decider {
    /// Creates each imported todo with its source's times, then completes or deletes it as it was there.
    ///
    /// Event ids are derived from the stream (`NameUUID`), so the same file imported
    /// twice, or by two processes at once, can never add a todo twice.
    static func decideImport(_ items: [ImportedTodo], state: ReadModel, into builder: inout DecisionBuilder) throws(DomainError) {
        var seen: Set<String> = []
        for item in items {
            guard state.version(of: item.stream) == 0, seen.insert(item.stream).inserted else {
                builder.notices.append(.alreadyImported(source: item.source))
                continue
            }
            var fields = item.fields
            fields.title = try Validation.title(fields.title)
            fields.tags = try Validation.tags(fields.tags)
            fields.note = try fields.note.flatMap { raw throws(DomainError) in try Validation.note(raw) }
            builder.append(.todoCreated(fields), to: item.stream, id: NameUUID.make(item.stream + "#1"), recordedAt: item.createdAt)
            switch item.status {
            case .pending: break
            case .completed:
                builder.append(.todoCompleted, to: item.stream, id: NameUUID.make(item.stream + "#2"), recordedAt: item.closedAt ?? item.createdAt)
            case .deleted:
                builder.append(.todoDeleted, to: item.stream, id: NameUUID.make(item.stream + "#2"), recordedAt: item.closedAt ?? item.createdAt)
            }
            builder.affected.append(item.stream)
        }
    }
}
