import TallyEssentials

/// Why a stored payload could not be turned into a `DomainEvent`.
public struct EventDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var type: String
    public var reason: String

    public var description: String { "a \(type) event: \(reason)" }

    public init(type: String, reason: String) {
        self.type = type
        self.reason = reason
    }
}

/// The one place that knows every event type: its name, its current payload
/// schema, how to write it, and how to read it back, upcasting older schemas.
public enum EventCatalog {
    /// Every event type with the payload schema written today.
    public static let currentSchemas: [String: Int] = [
        "todo.created": 4, "todo.edited": 3, "todo.completed": 1, "todo.reopened": 1,
        "todo.deleted": 1, "todo.restored": 1,
        "record.logged": 2, "record.edited": 2, "record.deleted": 1, "record.restored": 1,
        "filter.saved": 1, "filter.reset": 1,
        "history.undone": 1, "history.redone": 1, "history.redacted": 1,
        "series.started": 1, "series.changed": 1, "series.ended": 1, "series.resumed": 1,
        "athlete.set": 1,
        "gear.added": 1, "gear.changed": 1, "gear.defaulted": 1,
        "goal.set": 1, "goal.removed": 1,
        "todo.annotated": 1, "todo.denotated": 1, "todo.started": 1, "todo.stopped": 1, "todo.unstarted": 1,
    ]

    /// Every known event type name, sorted.
    public static var types: [String] { currentSchemas.keys.sorted() }

    /// A step that rewrites a payload of `type` from schema `from` to `from + 1`.
    public struct Upcaster: Sendable {
        public var type: String
        public var from: Int
        public var transform: @Sendable (JSONObject) throws(EventDecodingError) -> JSONObject

        public init(type: String, from: Int, transform: @escaping @Sendable (JSONObject) throws(EventDecodingError) -> JSONObject) {
            self.type = type
            self.from = from
            self.transform = transform
        }
    }

    /// Registered upcasters; a payload is upcast step by step until it reaches the current schema.
    public static let upcasters: [Upcaster] = [
        Upcaster(type: "todo.created", from: 1, transform: normalizingText),
        // Schema 3 only adds the optional `origin` key of imported todos; older payloads have none.
        Upcaster(type: "todo.created", from: 2, transform: { $0 }),
        Upcaster(type: "todo.edited", from: 1, transform: normalizingText),
        Upcaster(type: "todo.created", from: 3, transform: addingWaitAndSeries),
        // Schema 3 of `todo.edited` only allows the new keys `wait` and `series`; older payloads have neither.
        Upcaster(type: "todo.edited", from: 2, transform: { payload throws(EventDecodingError) in payload }),
        Upcaster(type: "record.logged", from: 1, transform: addingNoTrack),
        // Schema 2 of `record.edited` only allows the new key `track` (a reanalysis); older payloads have none.
        Upcaster(type: "record.edited", from: 1, transform: { payload throws(EventDecodingError) in payload }),
    ]

    /// The type name of an event.
    public static func typeName(of event: DomainEvent) -> String {
        switch event {
        case .todoCreated: "todo.created"
        case .todoEdited: "todo.edited"
        case .todoCompleted: "todo.completed"
        case .todoReopened: "todo.reopened"
        case .todoDeleted: "todo.deleted"
        case .todoRestored: "todo.restored"
        case .recordLogged: "record.logged"
        case .recordEdited: "record.edited"
        case .recordDeleted: "record.deleted"
        case .recordRestored: "record.restored"
        case .filterSaved: "filter.saved"
        case .filterReset: "filter.reset"
        case .historyUndone: "history.undone"
        case .historyRedone: "history.redone"
        case .historyRedacted: "history.redacted"
        case .seriesStarted: "series.started"
        case .seriesChanged: "series.changed"
        case .seriesEnded: "series.ended"
        case .seriesResumed: "series.resumed"
        case .athleteSet: "athlete.set"
        case .gearAdded: "gear.added"
        case .gearChanged: "gear.changed"
        case .gearDefaulted: "gear.defaulted"
        case .goalSet: "goal.set"
        case .goalRemoved: "goal.removed"
        case .todoAnnotated: "todo.annotated"
        case .todoDenotated: "todo.denotated"
        case .todoStarted: "todo.started"
        case .todoStopped: "todo.stopped"
        case .todoUnstarted: "todo.unstarted"
        }
    }

    /// The payload of an event in today's schema.
    public static func payload(of event: DomainEvent) -> JSONObject {
        switch event {
        case .todoCreated(let fields):
            var object: JSONObject = [
                "title": .string(TextForm.normalized(fields.title)),
                "tags": .array(fields.tags.map { .string($0) }),
                "priority": fields.priority.map { .string($0.rawValue) } ?? .null,
                "due": fields.due.map { .string($0.storageText) } ?? .null,
                "note": fields.note.map { .string(TextForm.normalized($0)) } ?? .null,
                "wait": fields.wait.map { .string($0.storageText) } ?? .null,
                "series": fields.series.map { .string($0) } ?? .null,
            ]
            if let origin = fields.origin { object["origin"] = .object(origin.payload) }
            if let project = fields.project { object["project"] = .string(project) }
            if !fields.after.isEmpty { object["after"] = .array(fields.after.map { .string($0) }) }
            return object
        case .todoEdited(let changes):
            var object = JSONObject()
            if let title = changes.title { object["title"] = .string(TextForm.normalized(title)) }
            if let tags = changes.tags { object["tags"] = .array(tags.map { .string($0) }) }
            if let priority = changes.priority { object["priority"] = priority.map { .string($0.rawValue) } ?? .null }
            if let due = changes.due { object["due"] = due.map { .string($0.storageText) } ?? .null }
            if let note = changes.note { object["note"] = note.map { .string(TextForm.normalized($0)) } ?? .null }
            if let wait = changes.wait { object["wait"] = wait.map { .string($0.storageText) } ?? .null }
            if let series = changes.series { object["series"] = series.map { .string($0) } ?? .null }
            if let project = changes.project { object["project"] = project.map { .string($0) } ?? .null }
            if let after = changes.after { object["after"] = .array(after.map { .string($0) }) }
            return object
        case .seriesStarted(let fields):
            return SeriesPayload.started(fields)
        case .seriesChanged(let changes):
            return SeriesPayload.changed(changes)
        case .todoCompleted, .todoReopened, .todoDeleted, .todoRestored, .recordDeleted, .recordRestored, .seriesEnded, .seriesResumed:
            return JSONObject()
        case .recordLogged(let fields):
            var object: JSONObject = [
                "name": .string(fields.name),
                "category": .string(fields.category),
                "durationSeconds": .int(Int64(fields.durationSeconds)),
                "distanceMeters": fields.distanceMeters.map { .double($0) } ?? .null,
                "place": fields.place.map { .string($0) } ?? .null,
                "date": .string(Timestamp.format(fields.date)),
                "note": fields.note.map { .string($0) } ?? .null,
                "source": .string(fields.source.rawValue),
                "track": fields.track.map { .object(TrackPayload.encode($0)) } ?? .null,
            ]
            if let effort = fields.effort { object["effort"] = .int(Int64(effort)) }
            if let gear = fields.gear { object["gear"] = .string(gear) }
            return object
        case .recordEdited(let changes):
            var object = JSONObject()
            if let name = changes.name { object["name"] = .string(name) }
            if let category = changes.category { object["category"] = .string(category) }
            if let duration = changes.durationSeconds { object["durationSeconds"] = .int(Int64(duration)) }
            if let distance = changes.distanceMeters { object["distanceMeters"] = distance.map { .double($0) } ?? .null }
            if let place = changes.place { object["place"] = place.map { .string($0) } ?? .null }
            if let date = changes.date { object["date"] = .string(Timestamp.format(date)) }
            if let note = changes.note { object["note"] = note.map { .string($0) } ?? .null }
            if let track = changes.track { object["track"] = .object(TrackPayload.encode(track)) }
            if let gear = changes.gear { object["gear"] = gear.map { .string($0) } ?? .null }
            if let effort = changes.effort { object["effort"] = effort.map { .int(Int64($0)) } ?? .null }
            return object
        case .filterSaved(let scope, let filter):
            return ["scope": .string(scope.rawValue), "filter": .object(filter)]
        case .filterReset(let scope):
            return ["scope": .string(scope.rawValue)]
        case .historyUndone(let command), .historyRedone(let command):
            return ["command": .string(command)]
        case .athleteSet(let entry):
            return AthletePayload.encode(entry)
        case .gearAdded(let fields):
            return [
                "name": .string(fields.name), "category": .string(fields.category),
                "retireAtMeters": fields.retireAtMeters.map { .double($0) } ?? .null,
            ]
        case .gearChanged(let changes):
            var object = JSONObject()
            if let name = changes.name { object["name"] = .string(name) }
            if let retireAt = changes.retireAtMeters { object["retireAtMeters"] = retireAt.map { .double($0) } ?? .null }
            if let retired = changes.retired { object["retired"] = .bool(retired) }
            if let removed = changes.removed { object["removed"] = .bool(removed) }
            return object
        case .gearDefaulted(let category, let gear):
            return ["category": .string(category), "gear": gear.map { .string($0) } ?? .null]
        case .goalSet(let goal):
            return GoalPayload.encode(goal)
        case .goalRemoved(let key):
            return GoalPayload.key(key)
        case .todoAnnotated(let annotation):
            return ["id": .string(annotation.id), "at": .string(Timestamp.format(annotation.at)), "text": .string(TextForm.normalized(annotation.text))]
        case .todoDenotated(let id):
            return ["id": .string(id)]
        case .todoStarted(let start, let end):
            var object: JSONObject = ["at": .string(Timestamp.format(start))]
            if let end { object["end"] = .string(Timestamp.format(end)) }
            return object
        case .todoStopped(let at), .todoUnstarted(let at):
            return ["at": .string(Timestamp.format(at))]
        case .historyRedacted(let facts):
            var payload: JSONObject = [
                "stream": .string(facts.stream), "field": .string(facts.field),
                "events": .array(facts.events.map { .int($0) }),
                "reason": facts.reason.map { .string($0) } ?? .null,
            ]
            // Only when one annotation is named: every other redaction keeps its payload as before.
            if let annotation = facts.annotation { payload.set("annotation", .string(annotation)) }
            return payload
        }
    }

    /// Reads a stored payload, upcasting it first when it was written with an older schema, with
    /// values past today's limits read as `LegacyValues` reads them: what every reader uses.
    public static func decode(type: String, schema: Int, data: JSONObject) throws(EventDecodingError) -> DomainEvent {
        LegacyValues.read(try decodeAsStored(type: type, schema: schema, data: data))
    }

    /// The stored payload as it names its values, past today's limits or not (for `verify`'s notes).
    public static func decodeAsStored(_ envelope: EventEnvelope) throws(EventDecodingError) -> DomainEvent {
        try decodeAsStored(type: envelope.type, schema: envelope.schema, data: try object(envelope))
    }

    static func decodeAsStored(type: String, schema: Int, data stored: JSONObject) throws(EventDecodingError) -> DomainEvent {
        let data = Commitment.readable(stored)
        guard let current = currentSchemas[type] else {
            throw EventDecodingError(type: type, reason: "unknown event type")
        }
        guard schema >= 1, schema <= current else {
            throw EventDecodingError(type: type, reason: "unsupported schema \(schema) (this version reads up to \(current))")
        }
        var payload = data
        var version = schema
        while version < current {
            guard let step = upcasters.first(where: { $0.type == type && $0.from == version }) else {
                throw EventDecodingError(type: type, reason: "no upcaster from schema \(version)")
            }
            payload = try step.transform(payload)
            version += 1
        }
        return try decodeCurrent(type: type, payload)
    }

    /// Decodes a stored payload straight from its UTF-8 bytes (the replay hot path): the frequent
    /// plain payloads without a JSON tree (`PayloadScanner`), everything else through the tree.
    public static func decode(type: String, schema: Int, utf8 data: UnsafeBufferPointer<UInt8>) throws(EventDecodingError) -> DomainEvent {
        if let event = PayloadScanner.decode(type: type, schema: schema, utf8: data) { return event }
        return try decodeTree(type: type, schema: schema, utf8: data)
    }

    /// Parses a stored payload into a JSON tree and decodes it: the definition of what a payload may be.
    static func decodeTree(type: String, schema: Int, utf8 data: UnsafeBufferPointer<UInt8>) throws(EventDecodingError) -> DomainEvent {
        let value: JSON
        do {
            value = try JSON.parse(utf8: data)
        } catch {
            throw EventDecodingError(type: type, reason: "payload is not valid JSON: \(error.reason)")
        }
        guard case .object(let object) = value else {
            throw EventDecodingError(type: type, reason: "payload is not a JSON object")
        }
        return try decode(type: type, schema: schema, data: object)
    }

    /// Parses the stored JSON text of an envelope and decodes it.
    public static func decode(_ envelope: EventEnvelope) throws(EventDecodingError) -> DomainEvent {
        try decode(type: envelope.type, schema: envelope.schema, data: try object(envelope))
    }

    /// The stored JSON text of an envelope as an object.
    private static func object(_ envelope: EventEnvelope) throws(EventDecodingError) -> JSONObject {
        let value: JSON
        do {
            value = try JSON.parse(envelope.data)
        } catch {
            throw EventDecodingError(type: envelope.type, reason: "payload is not valid JSON: \(error.reason)")
        }
        guard case .object(let object) = value else {
            throw EventDecodingError(type: envelope.type, reason: "payload is not a JSON object")
        }
        return object
    }

    private static func decodeCurrent(type: String, _ data: JSONObject) throws(EventDecodingError) -> DomainEvent {
        let reader = PayloadReader(type: type, data: data)
        switch type {
        case "todo.created":
            return .todoCreated(TodoFields(
                title: try reader.string("title"),
                tags: try reader.stringArray("tags"),
                priority: try reader.optional("priority", reader.priority),
                due: try reader.optional("due", reader.due),
                note: try reader.optional("note", reader.string),
                wait: try reader.optional("wait", reader.due),
                series: try reader.optional("series", reader.identifier),
                origin: reader.has("origin") ? try reader.origin("origin") : nil,
                project: reader.has("project") ? try reader.optional("project", reader.string) : nil,
                after: reader.has("after") ? try reader.stringArray("after") : []
            ))
        case "todo.edited":
            var changes = TodoChanges()
            if reader.has("title") { changes.title = try reader.string("title") }
            if reader.has("tags") { changes.tags = try reader.stringArray("tags") }
            if reader.has("priority") { changes.priority = .some(try reader.optional("priority", reader.priority)) }
            if reader.has("due") { changes.due = .some(try reader.optional("due", reader.due)) }
            if reader.has("note") { changes.note = .some(try reader.optional("note", reader.string)) }
            if reader.has("wait") { changes.wait = .some(try reader.optional("wait", reader.due)) }
            if reader.has("series") { changes.series = .some(try reader.optional("series", reader.identifier)) }
            if reader.has("project") { changes.project = .some(try reader.optional("project", reader.string)) }
            if reader.has("after") { changes.after = try reader.stringArray("after") }
            return .todoEdited(changes)
        case "todo.completed": return .todoCompleted
        case "todo.reopened": return .todoReopened
        case "todo.deleted": return .todoDeleted
        case "todo.restored": return .todoRestored
        case "record.logged":
            return .recordLogged(RecordFields(
                name: try reader.string("name"),
                category: try reader.string("category"),
                durationSeconds: try reader.int("durationSeconds"),
                distanceMeters: try reader.optional("distanceMeters", reader.double),
                place: try reader.optional("place", reader.string),
                date: try reader.instant("date"),
                note: try reader.optional("note", reader.string),
                source: try reader.source("source"),
                track: try reader.optional("track", reader.track),
                effort: reader.has("effort") ? try reader.optional("effort", reader.int) : nil,
                gear: reader.has("gear") ? try reader.optional("gear", reader.identifier) : nil
            ))
        case "record.edited":
            var changes = RecordChanges()
            if reader.has("name") { changes.name = try reader.string("name") }
            if reader.has("category") { changes.category = try reader.string("category") }
            if reader.has("durationSeconds") { changes.durationSeconds = try reader.int("durationSeconds") }
            if reader.has("distanceMeters") { changes.distanceMeters = .some(try reader.optional("distanceMeters", reader.double)) }
            if reader.has("place") { changes.place = .some(try reader.optional("place", reader.string)) }
            if reader.has("date") { changes.date = try reader.instant("date") }
            if reader.has("note") { changes.note = .some(try reader.optional("note", reader.string)) }
            if reader.has("track") { changes.track = try reader.track("track") }
            if reader.has("gear") { changes.gear = .some(try reader.optional("gear", reader.identifier)) }
            if reader.has("effort") { changes.effort = .some(try reader.optional("effort", reader.int)) }
            return .recordEdited(changes)
        case "record.deleted": return .recordDeleted
        case "record.restored": return .recordRestored
        case "filter.saved":
            return .filterSaved(scope: try reader.scope("scope"), filter: try reader.object("filter"))
        case "filter.reset":
            return .filterReset(scope: try reader.scope("scope"))
        case "history.undone":
            return .historyUndone(command: try reader.string("command"))
        case "history.redone":
            return .historyRedone(command: try reader.string("command"))
        case "history.redacted":
            guard let values = data["events"]?.arrayValue else { throw reader.fail("events", "an array of positions") }
            var events: [Int64] = []
            events.reserveCapacity(values.count)
            for value in values {
                guard let seq = value.intValue else { throw reader.fail("events", "an array of positions") }
                events.append(seq)
            }
            return .historyRedacted(RedactionFacts(
                stream: try reader.string("stream"), field: try reader.string("field"), events: events,
                reason: try reader.optional("reason", reader.string),
                annotation: reader.data["annotation"] == nil ? nil : try reader.optional("annotation", reader.identifier)
            ))
        case "series.started":
            return .seriesStarted(SeriesFields(
                rule: RecurrenceRule(period: try reader.period("every"), anchor: try reader.anchor("from")),
                start: try reader.due("start"),
                until: try reader.optional("until", reader.date),
                title: try reader.string("title"),
                tags: try reader.stringArray("tags"),
                priority: try reader.optional("priority", reader.priority),
                note: try reader.optional("note", reader.string)
            ))
        case "series.changed":
            var changes = SeriesChanges()
            if reader.has("every") { changes.period = try reader.period("every") }
            if reader.has("from") { changes.anchor = try reader.anchor("from") }
            if reader.has("until") { changes.until = .some(try reader.optional("until", reader.date)) }
            if reader.has("title") { changes.title = try reader.string("title") }
            if reader.has("tags") { changes.tags = try reader.stringArray("tags") }
            if reader.has("priority") { changes.priority = .some(try reader.optional("priority", reader.priority)) }
            if reader.has("note") { changes.note = .some(try reader.optional("note", reader.string)) }
            return .seriesChanged(changes)
        case "series.ended": return .seriesEnded
        case "series.resumed": return .seriesResumed
        case "gear.added":
            return .gearAdded(GearFields(
                name: try reader.string("name"), category: try reader.string("category"),
                retireAtMeters: try reader.optional("retireAtMeters", reader.double)
            ))
        case "gear.changed":
            var changes = GearChanges()
            if reader.has("name") { changes.name = try reader.string("name") }
            if reader.has("retireAtMeters") { changes.retireAtMeters = .some(try reader.optional("retireAtMeters", reader.double)) }
            if reader.has("retired") { changes.retired = try reader.bool("retired") }
            if reader.has("removed") { changes.removed = try reader.bool("removed") }
            return .gearChanged(changes)
        case "gear.defaulted":
            return .gearDefaulted(category: try reader.string("category"), gear: try reader.optional("gear", reader.identifier))
        case "goal.set":
            guard let goal = GoalPayload.decode(data) else {
                throw EventDecodingError(type: type, reason: "the payload is not a period, a metric, a category or null, a number and a date")
            }
            return .goalSet(goal)
        case "goal.removed":
            guard let key = GoalPayload.decodeKey(data) else {
                throw EventDecodingError(type: type, reason: "the payload is not a period, a metric and a category or null")
            }
            return .goalRemoved(key)
        case "athlete.set":
            guard let entry = AthletePayload.decode(data) else {
                throw EventDecodingError(type: type, reason: "the payload is not a date and whole numbers or null for each setting")
            }
            return .athleteSet(entry)
        case "todo.annotated":
            return .todoAnnotated(Annotation(id: try reader.identifier("id"), at: try reader.instant("at"), text: try reader.string("text")))
        case "todo.denotated":
            return .todoDenotated(id: try reader.identifier("id"))
        case "todo.started":
            return .todoStarted(start: try reader.instant("at"), end: reader.has("end") ? try reader.optional("end", reader.instant) : nil)
        case "todo.stopped":
            return .todoStopped(at: try reader.instant("at"))
        case "todo.unstarted":
            return .todoUnstarted(start: try reader.instant("at"))
        default:
            throw EventDecodingError(type: type, reason: "unknown event type")
        }
    }
}

/// Typed field access over a payload object, failing with the field's name.
private struct PayloadReader {
    let type: String
    let data: JSONObject

    init(type: String, data: JSONObject) {
        self.type = type
        self.data = data
    }

    func has(_ key: String) -> Bool { data[key] != nil }

    func fail(_ key: String, _ expected: String) -> EventDecodingError {
        EventDecodingError(type: type, reason: data[key] == nil ? "missing field '\(key)'" : "field '\(key)' is not \(expected)")
    }

    func string(_ key: String) throws(EventDecodingError) -> String {
        guard let value = data[key]?.stringValue else { throw fail(key, "a string") }
        return value
    }

    func stringArray(_ key: String) throws(EventDecodingError) -> [String] {
        guard let values = data[key]?.arrayValue else { throw fail(key, "an array of strings") }
        var strings: [String] = []
        strings.reserveCapacity(values.count)
        for value in values {
            guard let string = value.stringValue else { throw fail(key, "an array of strings") }
            strings.append(string)
        }
        return strings
    }

    func int(_ key: String) throws(EventDecodingError) -> Int {
        guard let value = data[key]?.intValue, let int = Int(exactly: value) else { throw fail(key, "an integer") }
        return int
    }

    func bool(_ key: String) throws(EventDecodingError) -> Bool {
        guard case .bool(let value)? = data[key] else { throw fail(key, "true or false") }
        return value
    }

    func double(_ key: String) throws(EventDecodingError) -> Double {
        guard let value = data[key]?.doubleValue, value.isFinite else { throw fail(key, "a number") }
        return value
    }

    func instant(_ key: String) throws(EventDecodingError) -> Int64 {
        guard let raw = data[key]?.stringValue, let value = Timestamp.parse(raw) ?? LegacyValues.storedInstant(raw) else {
            throw fail(key, "an ISO-8601 instant")
        }
        return value
    }

    func source(_ key: String) throws(EventDecodingError) -> RecordSource {
        guard let raw = data[key]?.stringValue, let value = RecordSource(rawValue: raw) else { throw fail(key, "local or import") }
        return value
    }

    func track(_ key: String) throws(EventDecodingError) -> TrackSummary {
        guard let object = data[key]?.objectValue, let track = TrackPayload.decode(object) else { throw fail(key, "a track summary") }
        return track
    }

    func object(_ key: String) throws(EventDecodingError) -> JSONObject {
        guard let value = data[key]?.objectValue else { throw fail(key, "an object") }
        return value
    }

    func priority(_ key: String) throws(EventDecodingError) -> Priority {
        guard let raw = data[key]?.stringValue, let value = Priority(rawValue: raw) else { throw fail(key, "low, medium or high") }
        return value
    }

    func due(_ key: String) throws(EventDecodingError) -> Due {
        guard let raw = data[key]?.stringValue, let value = Due(storageText: raw) ?? LegacyValues.storedDue(raw) else {
            throw fail(key, "a date or an ISO-8601 instant")
        }
        return value
    }

    func identifier(_ key: String) throws(EventDecodingError) -> String {
        guard let raw = data[key]?.stringValue, UUIDBytes.pack(raw) != nil else { throw fail(key, "a lowercase UUID") }
        return raw
    }

    func date(_ key: String) throws(EventDecodingError) -> LocalDate {
        guard let raw = data[key]?.stringValue, let value = LocalDate.parse(raw) ?? LegacyValues.storedDate(raw) else {
            throw fail(key, "a date (YYYY-MM-DD)")
        }
        return value
    }

    func period(_ key: String) throws(EventDecodingError) -> RecurrencePeriod {
        guard let raw = data[key]?.stringValue, let value = try? RecurrencePeriod.parse(raw), value.description == raw else {
            throw fail(key, "a period such as 1d, 2w, 1m, 1y or weekdays")
        }
        return value
    }

    func anchor(_ key: String) throws(EventDecodingError) -> RecurrenceAnchor {
        guard let raw = data[key]?.stringValue, let value = RecurrenceAnchor(rawValue: raw) else { throw fail(key, "due or completion") }
        return value
    }

    func origin(_ key: String) throws(EventDecodingError) -> TodoOrigin {
        guard let object = data[key]?.objectValue, let origin = TodoOrigin(payload: object) else {
            throw fail(key, "an object with tool, id and createdAt")
        }
        return origin
    }

    func scope(_ key: String) throws(EventDecodingError) -> FilterScope {
        guard let raw = data[key]?.stringValue, let value = FilterScope(rawValue: raw) else { throw fail(key, "todos or records") }
        return value
    }

    /// A field that must be present but may be null.
    func optional<T>(_ key: String, _ read: (String) throws(EventDecodingError) -> T) throws(EventDecodingError) -> T? {
        guard let value = data[key] else { throw fail(key, "present") }
        if value.isNull { return nil }
        return try read(key)
    }
}
