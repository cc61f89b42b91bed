
/// The only code that changes read models: a pure fold of events.
public enum Reducer {
    /// Bump whenever any reducer's behaviour changes: snapshots taken with another version are ignored.
    public static let version = 10

    /// Folds one event into the model.
    ///
    /// Events about streams the model does not know (which `verify` reports) are skipped rather than trusted.
    public static func evolve(_ model: inout ReadModel, _ event: DomainEvent, stream: String, version: Int, seq: Int64, at time: Int64) {
        var stream = stream
        stream.withUTF8 { evolve(&model, event, stream: StreamKey(utf8: $0), version: version, seq: seq, at: time) }
    }

    /// Folds one event into the model, given its stream id as a replay reads it (see `StreamKey`):
    /// an event about an existing item is folded without making a `String` of its id.
    /// Takes the event: its payload's strings move into the model instead of being copied.
    public static func evolve(_ model: inout ReadModel, _ event: consuming DomainEvent, stream: StreamKey, version: Int, seq: Int64, at time: Int64) {
        model.position = seq
        switch consume event {
        case .todoCreated(let fields):
            // A stream's first event (version 1) cannot find an item: the log keeps (stream, version)
            // unique, so the lookups (a binary search in a snapshot's id index) are only for later versions.
            guard version == 1 || !model.hasItem(stream) else { return }
            model.insertTodo(Todo(
                id: stream.string, number: model.todos.count + 1, title: fields.title, tags: fields.tags,
                priority: fields.priority, due: fields.due, note: fields.note, wait: fields.wait, series: fields.series,
                createdAt: fields.origin?.createdAt ?? time, updatedAt: time, version: version, origin: fields.origin,
                project: fields.project, after: fields.after
            ), key: stream)
        case .todoEdited(let changes):
            model.updateTodo(key: stream) { todo in
                todo.apply(changes)
                todo.touch(version: version, at: time)
            }
        case .todoCompleted:
            model.updateTodo(key: stream) { todo in
                todo.completed = true
                todo.completedAt = time
                todo.touch(version: version, at: time)
            }
        case .todoReopened:
            model.updateTodo(key: stream) { todo in
                todo.completed = false
                todo.completedAt = nil
                todo.touch(version: version, at: time)
            }
        case .todoDeleted:
            model.updateTodo(key: stream) { todo in
                todo.deleted = true
                todo.touch(version: version, at: time)
            }
        case .todoRestored:
            model.updateTodo(key: stream) { todo in
                todo.deleted = false
                todo.touch(version: version, at: time)
            }
        case .recordLogged(let fields):
            guard version == 1 || !model.hasItem(stream) else { return }
            model.insertRecord(Record(
                id: stream.string, number: model.records.count + 1, name: fields.name, category: fields.category,
                durationSeconds: Record.bounded(duration: fields.durationSeconds), distanceMeters: Record.bounded(distance: fields.distanceMeters),
                place: fields.place, date: Record.bounded(date: fields.date), note: fields.note, source: fields.source,
                createdAt: time, updatedAt: time, version: version, track: fields.track.map(Record.bounded(track:)),
                effort: Record.bounded(effort: fields.effort),
                gear: fields.gear
            ), key: stream)
        case .recordEdited(let changes):
            model.updateRecord(key: stream) { record in
                record.apply(changes)
                record.touch(version: version, at: time)
            }
        case .recordDeleted:
            model.updateRecord(key: stream) { record in
                record.deleted = true
                record.touch(version: version, at: time)
            }
        case .recordRestored:
            model.updateRecord(key: stream) { record in
                record.deleted = false
                record.touch(version: version, at: time)
            }
        case .filterSaved(let scope, let filter):
            model.filters[scope] = filter
            model.settingsVersions[stream.string] = version
        case .filterReset(let scope):
            model.filters[scope] = nil
            model.settingsVersions[stream.string] = version
        case .historyUndone, .historyRedone:
            model.settingsVersions[stream.string] = version
        case .historyRedacted(let facts):
            model.settingsVersions[stream.string] = version
            // The current value came from one of the events the redaction erased it from.
            let placeholder = Commitment.placeholder, name = Commitment.placeholderName
            if let position = model.todos.position(of: facts.stream) {
                model.todos.update(at: position) { todo in
                    switch facts.field {
                    case "title": todo.title = placeholder
                    case "note" where todo.note != nil: todo.note = placeholder
                    case "tags" where !todo.tags.isEmpty: todo.tags = [name]
                    case "project" where todo.project != nil: todo.project = name
                    case Commitment.annotationsField:
                        for index in todo.annotations.indices where facts.annotation == nil || todo.annotations[index].id == facts.annotation {
                            todo.annotations[index].text = placeholder
                        }
                    default: break
                    }
                }
            } else if let position = model.records.position(of: facts.stream) {
                model.records.update(at: position) { record in
                    switch facts.field {
                    case "name": record.name = placeholder
                    case "note" where record.note != nil: record.note = placeholder
                    case "place" where record.place != nil: record.place = placeholder
                    default: break
                    }
                }
            } else {
                model.series.update(id: facts.stream) { series in
                    var changes = SeriesChanges()
                    switch facts.field {
                    case "title": changes.title = placeholder
                    case "note" where series.fields.note != nil: changes.note = .some(placeholder)
                    case "tags" where !series.fields.tags.isEmpty: changes.tags = [name]
                    default: break
                    }
                    series.apply(changes)
                }
            }
        case .athleteSet(let entry):
            model.athlete.set(AthletePayload.bounded(entry))
            model.settingsVersions[stream.string] = version
        case .gearAdded(let fields):
            guard model.version(of: stream.string) == 0 else { return }
            model.gear.insert(Gear(
                id: stream.string, number: model.gear.items.count + 1, name: fields.name, category: fields.category,
                retireAtMeters: fields.retireAtMeters, createdAt: time, updatedAt: time
            ))
            model.settingsVersions[stream.string] = version
        case .gearChanged(let changes):
            guard model.gear[stream.string] != nil else { return }
            model.gear.update(id: stream.string) { gear in
                if let name = changes.name { gear.name = name }
                if let retireAt = changes.retireAtMeters { gear.retireAtMeters = retireAt }
                if let retired = changes.retired { gear.retired = retired }
                if let removed = changes.removed { gear.removed = removed }
                gear.updatedAt = time
            }
            model.settingsVersions[stream.string] = version
        case .gearDefaulted(let category, let gear):
            model.gear.setDefault(category, gear)
            model.settingsVersions[stream.string] = version
        case .goalSet(let goal):
            if GoalPayload.problem(goal) == nil { model.goals.set(goal, at: time) }
            model.settingsVersions[stream.string] = version
        case .goalRemoved(let key):
            model.goals.remove(key, at: time)
            model.settingsVersions[stream.string] = version
        case .seriesStarted(let fields):
            guard model.version(of: stream.string) == 0 else { return }
            model.series.insert(Series(id: stream.string, fields: fields, createdAt: time, updatedAt: time, version: version))
        case .seriesChanged(let changes):
            model.series.update(id: stream.string) { series in
                series.apply(changes)
                series.touch(version: version, at: time)
            }
        case .seriesEnded:
            model.series.update(id: stream.string) { series in
                series.ended = true
                series.touch(version: version, at: time)
            }
        case .seriesResumed:
            model.series.update(id: stream.string) { series in
                series.ended = false
                series.touch(version: version, at: time)
            }
        case .todoAnnotated(let annotation):
            model.updateTodo(key: stream) { todo in
                todo.annotate(Annotation(id: annotation.id, at: Record.bounded(date: annotation.at), text: annotation.text))
                todo.touch(version: version, at: time)
            }
        case .todoDenotated(let id):
            model.updateTodo(key: stream) { todo in
                todo.denotate(id: id)
                todo.touch(version: version, at: time)
            }
        case .todoStarted(let start, let end):
            model.updateTodo(key: stream) { todo in
                todo.start(at: Record.bounded(date: start), end: end.map(Record.bounded(date:)))
                todo.touch(version: version, at: time)
            }
        case .todoStopped(let at):
            model.updateTodo(key: stream) { todo in
                todo.stop(at: Record.bounded(date: at))
                todo.touch(version: version, at: time)
            }
        case .todoUnstarted(let start):
            model.updateTodo(key: stream) { todo in
                todo.unstart(at: Record.bounded(date: start))
                todo.touch(version: version, at: time)
            }
        }
    }

    /// Passes over an event that cannot be read (a type from a newer tally, a damaged payload):
    /// nothing of it is applied, but the log position and its stream's version move on, so the next
    /// event on that stream is numbered after it and a replay and a snapshot agree.
    public static func skip(_ model: inout ReadModel, stream: StreamKey, version: Int, seq: Int64) {
        model.position = seq
        if let position = model.todos.position(of: stream) {
            model.todos.update(at: position) { $0.version = max($0.version, version) }
        } else if let position = model.records.position(of: stream) {
            model.records.update(at: position) { $0.version = max($0.version, version) }
        } else if stream.uuid == nil {
            model.settingsVersions[stream.string] = max(model.settingsVersions[stream.string] ?? 0, version)
        } else {
            model.series.update(id: stream.string) { $0.version = max($0.version, version) }
        }
    }

    /// Folds an envelope, decoding its payload first.
    public static func evolve(_ model: inout ReadModel, _ envelope: EventEnvelope) throws(EventDecodingError) {
        let event = try EventCatalog.decode(envelope)
        evolve(&model, event, stream: envelope.stream, version: envelope.version, seq: envelope.seq, at: envelope.recordedAt)
    }
}

extension Todo {
    /// Sets exactly the fields an edit names; nothing else (not even `updatedAt`) changes.
    public mutating func apply(_ changes: TodoChanges) {
        if let title = changes.title { self.title = title }
        if let tags = changes.tags { self.tags = tags }
        if let priority = changes.priority { self.priority = priority }
        if let due = changes.due { self.due = due }
        if let note = changes.note { self.note = note }
        if let wait = changes.wait { self.wait = wait }
        if let project = changes.project { self.project = project }
        if let after = changes.after { self.after = after }
        if let series = changes.series { self.series = series }
    }

    fileprivate mutating func touch(version: Int, at time: Int64) {
        self.version = version
        updatedAt = time
    }
}

extension Series {
    fileprivate mutating func touch(version: Int, at time: Int64) {
        self.version = version
        updatedAt = time
    }
}

extension Record {
    /// Sets exactly the fields an edit names; nothing else (not even `updatedAt`) changes.
    public mutating func apply(_ changes: RecordChanges) {
        if let name = changes.name { self.name = name }
        if let category = changes.category { self.category = category }
        if let duration = changes.durationSeconds { durationSeconds = Record.bounded(duration: duration) }
        if let distance = changes.distanceMeters { distanceMeters = Record.bounded(distance: distance) }
        if let place = changes.place { self.place = place }
        if let date = changes.date { self.date = Record.bounded(date: date) }
        if let note = changes.note { self.note = note }
        if let track = changes.track { self.track = Record.bounded(track: track) }
        if let gear = changes.gear { self.gear = gear }
        if let effort = changes.effort { self.effort = Record.bounded(effort: effort) }
    }

    fileprivate mutating func touch(version: Int, at time: Int64) {
        self.version = version
        updatedAt = time
    }
}

/// The read model keeps every record's figures inside the limits every door shares (`EventRules`),
/// by the rules a stored event past them is read with (`LegacyValues`): decoding already applies
/// them, and folding applies them again to an event handed over directly, so snapshots, `rebuild`
/// and every view can rely on the limits and never trap. The event itself is left as it was
/// written: the log is never rewritten.
extension Record {
    static func bounded(duration seconds: Int) -> Int {
        min(max(seconds, 1), Validation.maxDurationSeconds)
    }

    static func bounded(distance meters: Double?) -> Double? {
        LegacyValues.distance(meters)
    }

    static func bounded(date: Int64) -> Int64 {
        min(max(date, Timestamp.supportedRange.lowerBound), Timestamp.supportedRange.upperBound)
    }

    static func bounded(track: TrackSummary) -> TrackSummary {
        LegacyValues.track(track)
    }

    /// An effort outside 1-10 (refused at every door) is read as none, in `record.logged` and `record.edited` alike.
    static func bounded(effort: Int?) -> Int? {
        effort.flatMap { Validation.effort.contains($0) ? $0 : nil }
    }
}
