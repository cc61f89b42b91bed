import TallyEssentials

/// The payloads of the series events and the todo schema 3 upcaster.
///
/// `series.started`: `every` (`1d`, `2w`, `1m`, `1y`, `weekdays`), `from` (`due` or `completion`),
/// `start` (the first due: a date or an ISO-8601 instant), `until` (a date or null), and the
/// `title`, `tags`, `priority` and `note` each instance is created with. `series.changed` holds
/// only the changed keys of those but `start`; `series.ended` and `series.resumed` are `{}`.
enum SeriesPayload {
    static func started(_ fields: SeriesFields) -> JSONObject {
        [
            "every": .string(fields.rule.period.description),
            "from": .string(fields.rule.anchor.rawValue),
            "start": .string(fields.start.storageText),
            "until": fields.until.map { .string($0.description) } ?? .null,
            "title": .string(TextForm.normalized(fields.title)),
            "tags": .array(fields.tags.map { .string($0) }),
            "priority": fields.priority.map { .string($0.rawValue) } ?? .null,
            "note": fields.note.map { .string(TextForm.normalized($0)) } ?? .null,
        ]
    }

    static func changed(_ changes: SeriesChanges) -> JSONObject {
        var object = JSONObject()
        if let period = changes.period { object["every"] = .string(period.description) }
        if let anchor = changes.anchor { object["from"] = .string(anchor.rawValue) }
        if let until = changes.until { object["until"] = until.map { .string($0.description) } ?? .null }
        if let title = changes.title { object["title"] = .string(TextForm.normalized(title)) }
        if let tags = changes.tags { object["tags"] = .array(tags.map { .string($0) }) }
        if let priority = changes.priority { object["priority"] = priority.map { .string($0.rawValue) } ?? .null }
        if let note = changes.note { object["note"] = note.map { .string(TextForm.normalized($0)) } ?? .null }
        return object
    }
}

extension EventCatalog {
    /// Upcaster 3 → 4 of `todo.created`: schema 4 adds `wait` and `series`, null for every older todo.
    @Sendable static func addingWaitAndSeries(_ payload: JSONObject) throws(EventDecodingError) -> JSONObject {
        var upcast = payload
        if upcast["wait"] == nil { upcast["wait"] = .null }
        if upcast["series"] == nil { upcast["series"] = .null }
        return upcast
    }
}
