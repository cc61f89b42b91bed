
/// The import half of the decider.
extension Decider {
    /// Creates each imported todo, then completes or deletes it as it was there; brings back imported todos deleted since.
    ///
    /// `todo.created` is recorded now, like any command, so numbers and time travel follow the log; the
    /// source's creation time travels in the payload's `origin`. A completion or deletion keeps the
    /// source's time as its recorded time. Event ids are derived from the stream (`NameUUID`), so the
    /// same file imported twice, or by two processes at once, can never add a todo twice.
    ///
    /// An item is already present when its todo exists and is alive (or was deleted in the source too);
    /// one deleted since (by `undo` or `delete`) is restored, so importing after an undo brings it back.
    static func decideImport(_ items: [ImportedTodo], state: ReadModel, now: Int64, into builder: inout DecisionBuilder) throws(DomainError) {
        var seen: Set<String> = []
        for item in items {
            guard seen.insert(item.stream).inserted else {
                builder.notices.append(.alreadyImported(source: item.source))
                continue
            }
            if let existing = state.todo(id: item.stream) {
                guard existing.deleted, item.status != .deleted else {
                    builder.notices.append(.alreadyImported(source: item.source))
                    continue
                }
                builder.append(.todoRestored, to: item.stream, id: NameUUID.make(item.stream + "#\(existing.version + 1)"))
                builder.affected.append(item.stream)
                continue
            }
            guard state.version(of: item.stream) == 0 else {
                builder.notices.append(.alreadyImported(source: item.source))
                continue
            }
            var fields = item.fields
            fields.title = try Validation.title(fields.title)
            fields.tags = try Validation.tags(fields.tags)
            fields.note = try fields.note.flatMap { raw throws(DomainError) in try Validation.note(raw) }
            builder.append(.todoCreated(fields), to: item.stream, id: NameUUID.make(item.stream + "#1"))
            // Annotations keep the source's dates; their ids (and their events') come from the stream and their place.
            for (index, annotation) in item.annotations.enumerated() {
                let id = NameUUID.make(item.stream + "#annotation:\(index + 1)")
                let text = try Validation.annotation(annotation.text)
                builder.append(.todoAnnotated(Annotation(id: id, at: annotation.at ?? fields.origin?.createdAt ?? now, text: text)), to: item.stream, id: NameUUID.make(id))
            }
            if let started = item.started {
                let end: Int64? = item.status == .pending ? nil : max(item.closedAt ?? now, started)
                builder.append(.todoStarted(start: started, end: end), to: item.stream, id: NameUUID.make(item.stream + "#started"))
            }
            switch item.status {
            case .pending: break
            case .completed:
                builder.append(.todoCompleted, to: item.stream, id: NameUUID.make(item.stream + "#2"), recordedAt: item.closedAt)
            case .deleted:
                builder.append(.todoDeleted, to: item.stream, id: NameUUID.make(item.stream + "#2"), recordedAt: item.closedAt)
            }
            builder.affected.append(item.stream)
        }
    }
}
