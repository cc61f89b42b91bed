import TallyEssentials

/// The limits every event in a log obeys, whoever wrote it: the one set of limits of every door.
///
/// The values (`Validation`'s constants, `Timestamp.supportedRange`) are defined once. Every door
/// checks against them: the decider on whatever a command (`add`, `edit`, `record add`, `record
/// import`, `import` of todo.txt or Taskwarrior) is about to append (`Decider.decide`), the
/// activity files before they become a record (`ActivityFile.fields`), and `EventLines.decode` on
/// events that arrive from outside (`import` of an export), so an edited or hostile export cannot
/// put a 1 MB title, a control character, an impossible duration or date or a stream of the wrong
/// kind into the log, and whatever one door accepts, `export` writes and `import` reads back.
/// Pure; the reasons are the English texts `import` reports with the line number.
public enum EventRules {
    /// Longest actor name an event may carry.
    public static let maxActorLength = 200

    /// Checks the event's id, command, actor and stream shape, then its payload's values.
    public static func check(_ event: DomainEvent, id: String, stream: String, command: String, actor: String) throws(EventLineError) {
        guard UUIDBytes.pack(id) != nil else { throw EventLineError("field 'id' is not a lowercase UUID") }
        guard UUIDBytes.pack(command) != nil else { throw EventLineError("field 'command' is not a lowercase UUID") }
        guard Validation.length(actor) <= maxActorLength, !actor.unicodeScalars.contains(where: Validation.isControl) else {
            throw EventLineError("field 'actor' is longer than \(maxActorLength) characters or contains control characters")
        }
        try checkStream(event, stream)
        try checkPayload(event)
    }

    /// Todos and records live on UUID streams, saved views on their scope's stream, markers on `history`.
    static func checkStream(_ event: DomainEvent, _ stream: String) throws(EventLineError) {
        switch event {
        case .filterSaved(let scope, _), .filterReset(let scope):
            guard stream == scope.stream else { throw EventLineError("a \(scope.rawValue) view event belongs on stream '\(scope.stream)'") }
        case .historyUndone, .historyRedone, .historyRedacted:
            guard stream == HistoryStream.name else { throw EventLineError("a history marker belongs on stream '\(HistoryStream.name)'") }
        case .goalSet, .goalRemoved:
            guard stream == GoalBook.stream else { throw EventLineError("a goal event belongs on stream '\(GoalBook.stream)'") }
        case .gearDefaulted:
            guard stream == GearBook.defaultsStream else { throw EventLineError("a gear default belongs on stream '\(GearBook.defaultsStream)'") }
        case .athleteSet:
            guard stream == AthleteHistory.stream else { throw EventLineError("an athlete event belongs on stream '\(AthleteHistory.stream)'") }
        default:
            guard UUIDBytes.pack(stream) != nil else { throw EventLineError("field 'stream' is not a lowercase UUID") }
        }
    }

    /// Checks the values of one event's payload against the limits.
    public static func checkPayload(_ event: DomainEvent) throws(EventLineError) {
        switch event {
        case .todoCreated(let fields):
            try title(fields.title)
            try tags(fields.tags)
            try note(fields.note)
            try due(fields.due, field: "due")
            try due(fields.wait, field: "wait")
            if let series = fields.series, UUIDBytes.pack(series) == nil { throw EventLineError("field 'series' is not a lowercase UUID") }
            try project(fields.project)
            try after(fields.after)
        case .seriesStarted(let fields):
            try title(fields.title)
            try tags(fields.tags)
            try note(fields.note)
            try due(fields.start, field: "start")
        case .seriesChanged(let changes):
            if let value = changes.title { try title(value) }
            if let value = changes.tags { try tags(value) }
            if let value = changes.note { try note(value) }
        case .todoEdited(let changes):
            if let value = changes.title { try title(value) }
            if let value = changes.tags { try tags(value) }
            if let value = changes.note { try note(value) }
            if let value = changes.due { try due(value, field: "due") }
            if let value = changes.wait { try due(value, field: "wait") }
            if let series = changes.series ?? nil, UUIDBytes.pack(series) == nil { throw EventLineError("field 'series' is not a lowercase UUID") }
            if let value = changes.project { try project(value) }
            if let value = changes.after { try after(value) }
        case .recordLogged(let fields):
            if let reason = recordProblem(fields) { throw EventLineError(reason) }
        case .recordEdited(let changes):
            if let value = changes.name { try name(value) }
            if let value = changes.category { try category(value) }
            if let value = changes.durationSeconds { try duration(value) }
            if let value = changes.distanceMeters { try distance(value) }
            if let value = changes.place { try place(value) }
            if let value = changes.note { try note(value) }
            if let value = changes.date { try instant(value, field: "date") }
            if let track = changes.track, let reason = TrackPayload.problem(track) { throw EventLineError(reason) }
            if let gear = changes.gear ?? nil, UUIDBytes.pack(gear) == nil { throw EventLineError("field 'gear' is not a lowercase UUID") }
            if let effort = changes.effort ?? nil, !Validation.effort.contains(effort) { throw EventLineError("field 'effort' is not between 1 and 10") }
        case .gearAdded(let fields):
            if let reason = GearLimits.nameProblem(fields.name) ?? GearLimits.retireProblem(fields.retireAtMeters) { throw EventLineError(reason) }
            try category(fields.category)
        case .gearChanged(let changes):
            if let name = changes.name, let reason = GearLimits.nameProblem(name) { throw EventLineError(reason) }
            if let retireAt = changes.retireAtMeters, let reason = GearLimits.retireProblem(retireAt) { throw EventLineError(reason) }
        case .goalSet(let goal):
            if let reason = GoalPayload.problem(goal) { throw EventLineError(reason) }
        case .goalRemoved(let key):
            if let reason = GoalPayload.keyProblem(key) { throw EventLineError(reason) }
        case .gearDefaulted(let gearCategory, let gear):
            try category(gearCategory)
            if let gear, UUIDBytes.pack(gear) == nil { throw EventLineError("field 'gear' is not a lowercase UUID") }
        case .historyUndone(let command), .historyRedone(let command):
            guard UUIDBytes.pack(command) != nil else { throw EventLineError("field 'command' of the marker is not a lowercase UUID") }
        case .athleteSet(let entry):
            if let reason = AthleteLimits.problem(entry) { throw EventLineError(reason) }
        case .filterSaved(let scope, let filter):
            try savedFilter(filter, scope: scope)
        case .todoAnnotated(let annotation):
            guard UUIDBytes.pack(annotation.id) != nil else { throw EventLineError("field 'id' of an annotation is not a lowercase UUID") }
            try instant(annotation.at, field: "at")
            try annotationText(annotation.text)
        case .todoDenotated(let id):
            guard UUIDBytes.pack(id) != nil else { throw EventLineError("field 'id' of an annotation is not a lowercase UUID") }
        case .todoStarted(let start, let end):
            try instant(start, field: "at")
            if let end {
                try instant(end, field: "end")
                guard end >= start else { throw EventLineError("field 'end' is before 'at'") }
            }
        case .todoStopped(let at), .todoUnstarted(let at):
            try instant(at, field: "at")
        case .historyRedacted(let facts):
            if let reason = Redaction.problem(facts) { throw EventLineError(reason) }
        case .todoCompleted, .todoReopened, .todoDeleted, .todoRestored, .recordDeleted, .recordRestored, .filterReset,
             .seriesEnded, .seriesResumed:
            break
        }
    }

    /// Why a record's fields break the limits (the English reason), or nil: the check every door
    /// runs on a record, the activity files' included (`ActivityFile.fields`).
    public static func recordProblem(_ fields: RecordFields) -> String? {
        do throws(EventLineError) {
            try name(fields.name)
            try category(fields.category)
            try duration(fields.durationSeconds)
            try distance(fields.distanceMeters)
            try place(fields.place)
            try note(fields.note)
            try instant(fields.date, field: "date")
        } catch {
            return error.reason
        }
        if let effort = fields.effort, !Validation.effort.contains(effort) { return "field 'effort' is not between 1 and 10" }
        if let gear = fields.gear, UUIDBytes.pack(gear) == nil { return "field 'gear' is not a lowercase UUID" }
        return fields.track.flatMap(TrackPayload.problem)
    }

    // The fast paths below answer for printable ASCII, where trimming, NFC and counting characters
    // are plain byte work (a bulk import checks every title); anything else goes to `Validation`.

    /// A project in its stored form (`ProjectPath.normalized` keeps it as it is).
    static func project(_ value: String?) throws(EventLineError) {
        guard let value else { return }
        guard sameScalars(ProjectPath.normalized(value), value) else {
            throw EventLineError("project '\(value.prefix(40))' is not up to \(ProjectPath.maxDepth) dotted names of 1-\(Validation.maxTagLength) letters or digits, '_' and '-' (\(ProjectPath.maxLength) characters in all)")
        }
    }

    /// The todos one waits for: lowercase UUIDs, each once, at most `TodoDependencies.maxAfter`.
    static func after(_ ids: [String]) throws(EventLineError) {
        guard ids.count <= TodoDependencies.maxAfter else { throw EventLineError("a todo waits for more than \(TodoDependencies.maxAfter) others") }
        guard Set(ids).count == ids.count else { throw EventLineError("field 'after' names a todo twice") }
        for id in ids where UUIDBytes.pack(id) == nil { throw EventLineError("field 'after' holds something that is not a lowercase UUID") }
    }

    /// A saved view of records, or the todos' contexts (a 0.9 saved view read as the context
    /// `default`): names in the limits, expressions that parse, an active context that exists.
    static func savedFilter(_ filter: JSONObject, scope: FilterScope) throws(EventLineError) {
        guard scope == .todos else { return try filterExpression(filter["expression"], subject: .records) }
        let object = TodoContexts.upcast(filter)
        guard let contexts = object["contexts"]?.objectValue else { throw EventLineError("field 'contexts' of the todos' view is not an object") }
        guard contexts.count <= TodoContexts.maxContexts else { throw EventLineError("more than \(TodoContexts.maxContexts) contexts") }
        for name in contexts.keys {
            let view = contexts[name] ?? .null
            // (Scalar by scalar, as tags: a name not in NFC is not one the server's rule takes.)
            guard sameScalars(TodoContexts.validName(name), name) else { throw EventLineError("context name '\(name.prefix(40))' is not a name like a tag") }
            guard let view = view.objectValue else { throw EventLineError("context '\(name)' is not an object") }
            try filterExpression(view["expression"])
        }
        if let active = object["active"] {
            guard let name = active.stringValue, contexts[name] != nil else { throw EventLineError("field 'active' names no context") }
        }
    }

    /// A saved view's expression: text in the limits that parses (`FilterParser`) as a filter of the view's scope.
    static func filterExpression(_ value: JSON?, subject: FilterSubject = .todos) throws(EventLineError) {
        guard let value else { return }
        guard let text = value.stringValue else { throw EventLineError("field 'expression' of a view is not a string") }
        do {
            _ = try FilterParser.parse(text, subject: subject)
        } catch {
            throw EventLineError("field 'expression' of a view does not parse: \(error.english) at character \(error.offset + 1)")
        }
    }

    /// An annotation: one line of 1-`Annotation.maxLength` characters without control characters, in NFC.
    static func annotationText(_ value: String) throws(EventLineError) {
        if printableASCII(value, max: Annotation.maxLength), value.utf8.contains(where: { $0 != 0x20 }), value.first != " ", value.last != " " { return }
        guard (try? Validation.annotation(value)) == value else {
            throw EventLineError("field 'text' of an annotation is not 1-\(Annotation.maxLength) characters on one line without control characters")
        }
    }

    static func title(_ value: String) throws(EventLineError) {
        if printableASCII(value, max: Validation.maxTitleLength), value.utf8.contains(where: { $0 != 0x20 }) { return }
        guard (try? Validation.title(value)) != nil else {
            throw EventLineError("field 'title' is not 1-\(Validation.maxTitleLength) characters without control characters")
        }
    }

    static func tags(_ values: [String]) throws(EventLineError) {
        guard values.count <= Validation.maxTags else { throw EventLineError("more than \(Validation.maxTags) tags") }
        // (Compared scalar by scalar: `==` on strings is canonical equivalence, and a tag not in NFC
        // is not one the server's rule takes.)
        for tag in values where !plainTag(tag) && !sameScalars(try? Validation.tag(tag), tag) {
            throw EventLineError("tag '\(tag.prefix(40))' is not 1-\(Validation.maxTagLength) letters or digits, '_' and '-'")
        }
    }

    static func note(_ value: String?) throws(EventLineError) {
        guard let value else { return }
        // (`Validation.note` answers nil for a blank note, which `try?` cannot tell from a refusal: refused.)
        if printableASCII(value, max: Validation.maxNoteLength), value.utf8.contains(where: { $0 != 0x20 }) { return }
        guard (try? Validation.note(value)) != nil else {
            throw EventLineError("field 'note' is longer than \(Validation.maxNoteLength) characters or contains control characters")
        }
    }

    /// True when `stored` is `value` scalar by scalar (not only canonically equivalent, as `==` has it).
    static func sameScalars(_ stored: String?, _ value: String) -> Bool {
        guard let stored else { return false }
        return stored.unicodeScalars.elementsEqual(value.unicodeScalars)
    }

    /// True when `value` is at most `max` bytes, all of them 0x20-0x7E.
    static func printableASCII(_ value: String, max: Int) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            bytes.count <= max && bytes.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
        }
    }

    /// A tag `Validation.tag` keeps as it is, told from its bytes: 1 to the limit of `a-z`, `0-9`, `_`, `-`.
    static func plainTag(_ tag: String) -> Bool {
        var tag = tag
        return tag.withUTF8 { bytes in
            guard !bytes.isEmpty, bytes.count <= Validation.maxTagLength else { return false }
            return bytes.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F || $0 == 0x2D }
        }
    }

    static func name(_ value: String) throws(EventLineError) {
        guard (try? Validation.name(value)) != nil else {
            throw EventLineError("field 'name' is not 1-\(Validation.maxNameLength) characters without control characters")
        }
    }

    static func category(_ value: String) throws(EventLineError) {
        guard (try? Validation.category(value)) == value else { throw EventLineError("field 'category' is not [a-z][a-z0-9-]{0,31}") }
    }

    static func duration(_ seconds: Int) throws(EventLineError) {
        guard seconds > 0, seconds <= Validation.maxDurationSeconds else {
            throw EventLineError("field 'durationSeconds' is not above zero and at most 7 days")
        }
    }

    private static func distance(_ meters: Double?) throws(EventLineError) {
        guard let meters else { return }
        guard meters.isFinite, meters >= 0, meters <= Validation.maxDistanceMeters else {
            throw EventLineError("field 'distanceMeters' is not between 0 and 1000 km")
        }
    }

    /// An instant `Timestamp.format` writes so that `Timestamp.parse` reads it back (years 0001-9999 in UTC).
    private static func instant(_ ms: Int64, field: String) throws(EventLineError) {
        guard Timestamp.supportedRange.contains(ms) else {
            throw EventLineError("field '\(field)' is outside the years 0001-9999")
        }
    }

    private static func due(_ value: Due?, field: String) throws(EventLineError) {
        switch value {
        case .instant(let ms)?: try instant(ms, field: field)
        case .date(let date)?:
            guard date.isInSupportedYears else { throw EventLineError("field '\(field)' is outside the years 0001-9999") }
        case nil: break
        }
    }

    static func place(_ value: String?) throws(EventLineError) {
        guard let value else { return }
        guard (try? Validation.line(value, field: "place")) != nil else {
            throw EventLineError("field 'place' is not 1-\(Validation.maxNameLength) characters without control characters")
        }
    }
}
