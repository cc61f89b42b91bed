import TallyEssentials

/// What the imports so far made of one imported todo: its fields and state as the source last gave them.
///
/// A re-import compares the source's item now with this, not with the todo as it is in tally, so it
/// applies only what changed in the source since the last import and leaves changes made in tally
/// to other fields alone.
///
/// An import's events carry derived ids: the event at version `v` of stream `s` has the id
/// `NameUUID.make("s#v")`. Events of any other command have random ids, so the events an import
/// appended can be told apart from the rest of the stream without any record besides the log.
public struct ImportBaseline: Sendable, Equatable {
    /// The fields as the imports left them; nil when no import created the todo (tally did, as the
    /// next instance of a series whose occurrence the source also has).
    public var fields: TodoFields?
    /// The state the source gave it at the last import; nil when no import created the todo.
    public var status: ImportedTodo.Status?
    /// The todo is deleted (the series ended) because the import that created or restored it was
    /// undone: as far as the user is concerned it was never imported, and importing again brings it back.
    public var importUndone: Bool
    /// The annotations the imports put on the todo and did not take off since (whatever tally did to them).
    public var annotations: [Annotation] = []
    /// The start of the interval an import began (the source's `start` then) and no import stopped since.
    public var started: Int64?
    /// A series stream's rule as the imports left it; nil when no import started it.
    public var series: SeriesFields?
    /// The import's `todo.created` has no commitments: a tally before 0.10.0 wrote it (see `isLegacy`).
    public var createdBeforeCommitments = false

    public init(fields: TodoFields? = nil, status: ImportedTodo.Status? = nil, importUndone: Bool = false) {
        self.fields = fields
        self.status = status
        self.importUndone = importUndone
    }

    /// True when an import of tally before 0.10.0 made this todo from a task whose fields that version
    /// mapped otherwise: before 0.9.0 the project became a tag (`home.garden` as `home-garden`) and
    /// `depends` a note line; before 0.10.0 annotations (`2026-11-21 text`) and `start` were note lines.
    /// Compared with what the import makes of the same task today, those fields read as changed in the
    /// source though nothing changed there, and taking the source's values would undo what was changed
    /// in tally since (a tag added, the note edited). Turning the lines into fields cannot be done
    /// without that loss or guessing, so such a todo keeps them (`keepingLegacy`).
    ///
    /// Told by the import's `todo.created`: written without commitments (`$salts`, since 0.10.0), for a
    /// task that has, or had, a project, dependencies, annotations or a start.
    public func isLegacy(for item: ImportedTodo) -> Bool {
        guard let fields, fields.origin?.tool == .taskwarrior, createdBeforeCommitments else { return false }
        return item.fields.project != nil || !item.fields.after.isEmpty || !item.annotations.isEmpty || item.started != nil
            || fields.project != nil || !fields.after.isEmpty
    }

    /// `item` with the fields an earlier import mapped otherwise as this baseline has them, and
    /// without annotations and a start: a re-import then applies only the rest (see `isLegacy`).
    public func keepingLegacy(_ item: ImportedTodo) -> ImportedTodo {
        guard let fields else { return item }
        var kept = item
        kept.fields.tags = fields.tags
        kept.fields.note = fields.note
        kept.fields.project = fields.project
        kept.fields.after = fields.after
        kept.annotations = []
        kept.started = nil
        return kept
    }

    /// True when `envelope` (of `stream`, decoded as `event`) was appended by an import: its id is derived
    /// from the stream and version, or, for the first import's annotations and start, from those.
    static func byImport(_ envelope: EventEnvelope, _ event: DomainEvent, stream: String) -> Bool {
        if envelope.id == eventID(stream: stream, version: envelope.version) { return true }
        switch event {
        case .todoAnnotated(let annotation): return envelope.id == NameUUID.make(annotation.id)
        case .todoStarted: return envelope.id == NameUUID.make(stream + "#started")
        default: return false
        }
    }

    /// The id an import gives the event at `version` of `stream`.
    public static func eventID(stream: String, version: Int) -> String {
        NameUUID.make(stream + "#\(version)")
    }

    /// Folds the import-made events of `stream` (in version order), leaving out those of imports
    /// that are undone now: what an undone import applied counts as never imported, so importing
    /// again applies it again.
    /// - Complexity: O(events of the stream).
    public static func fold(stream: String, events: [EventEnvelope], history: HistoryMarkers) -> ImportBaseline {
        var baseline = ImportBaseline()
        var importCommands: Set<String> = []
        var lastDeletion: String?
        var undone: [String: Bool] = [:]
        for envelope in events {
            guard let event = try? EventCatalog.decode(envelope) else { continue }
            let byImport = Self.byImport(envelope, event, stream: stream)
            switch event {
            case .todoDeleted, .seriesEnded: lastDeletion = envelope.command
            case .todoRestored, .seriesResumed: lastDeletion = nil
            default: break
            }
            guard byImport else { continue }
            importCommands.insert(envelope.command)
            let isUndone = undone[envelope.command] ?? history.isUndone(envelope.command)
            undone[envelope.command] = isUndone
            guard !isUndone else { continue }
            switch event {
            case .todoCreated(let fields):
                baseline.fields = fields
                baseline.status = .pending
                baseline.createdBeforeCommitments = !Commitment.isCommitted(envelope.data)
            case .todoEdited(let changes):
                baseline.fields?.apply(changes)
            case .todoCompleted: baseline.status = .completed
            case .todoReopened: baseline.status = .pending
            case .todoDeleted: baseline.status = .deleted
            case .todoRestored:
                // A restore by an import: the state before the deletion in the source or in tally.
                if baseline.status == .deleted { baseline.status = .pending }
            case .todoAnnotated(let annotation): baseline.annotations.append(annotation)
            case .todoDenotated(let id): baseline.annotations.removeAll { $0.id == id }
            case .todoStarted(let start, _): baseline.started = start
            case .todoStopped: baseline.started = nil
            case .seriesStarted(let fields): baseline.series = fields
            case .seriesChanged(let changes): baseline.series?.apply(changes)
            default: break
            }
        }
        if let lastDeletion, let reverted = history.undid[lastDeletion], !reverted.isDisjoint(with: history.standingFor(importCommands)) {
            baseline.importUndone = true
        }
        return baseline
    }
}

extension HistoryMarkers {
    /// True when `command` is undone now: undone and not redone since, or re-applied by a redo that is
    /// itself undone now (the undo of a redo takes the command back again).
    /// - Complexity: O(redos × depth of the chain).
    func isUndone(_ command: String) -> Bool {
        var seen: Set<String> = []
        func undone(_ command: String) -> Bool {
            if undoneNow.contains(command) { return true }
            guard seen.insert(command).inserted else { return false }
            return redid.contains { $0.value.contains(command) && undone($0.key) }
        }
        return undone(command)
    }

    /// `commands` and every redo that re-applied one of them (or such a redo), so the undo of a redo
    /// of an import counts as the undo of the import.
    func standingFor(_ commands: Set<String>) -> Set<String> {
        var result = commands
        var grew = true
        while grew {
            grew = false
            for (redo, targets) in redid where !result.contains(redo) && !targets.isDisjoint(with: result) {
                result.insert(redo)
                grew = true
            }
        }
        return result
    }
}

extension SeriesFields {
    /// The fields after `changes` (a `series.changed` payload).
    public mutating func apply(_ changes: SeriesChanges) {
        var series = Series(id: "", fields: self, createdAt: 0, updatedAt: 0)
        series.apply(changes)
        self = series.fields
    }
}

extension TodoFields {
    /// The fields after `changes` (a `todo.edited` payload).
    public mutating func apply(_ changes: TodoChanges) {
        if let title = changes.title { self.title = title }
        if let tags = changes.tags { self.tags = tags }
        if let priority = changes.priority { self.priority = priority }
        if let due = changes.due { self.due = due }
        if let note = changes.note { self.note = note }
        if let wait = changes.wait { self.wait = wait }
        if let series = changes.series { self.series = series }
        if let project = changes.project { self.project = project }
        if let after = changes.after { self.after = after }
    }
}
