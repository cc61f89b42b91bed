import TallyDomain
import TallyEssentials

/// The `--json` shapes (docs/guide/json.md): absent values are `null`, timestamps ISO-8601 UTC.
enum JSONShapes {
    static func todo(_ todo: Todo) -> JSON {
        .object([
            "id": .string(todo.id),
            "number": .int(Int64(todo.number)),
            "title": .string(todo.title),
            "completed": .bool(todo.completed),
            "tags": .array(todo.tags.map { .string($0) }),
            "priority": todo.priority.map { .string($0.rawValue) } ?? .null,
            "due": todo.due.map { .string($0.storageText) } ?? .null,
            "note": todo.note.map { .string($0) } ?? .null,
            "createdAt": .string(Timestamp.format(todo.createdAt)),
            "updatedAt": .string(Timestamp.format(todo.updatedAt)),
            "completedAt": todo.completedAt.map { .string(Timestamp.format($0)) } ?? .null,
            "deleted": .bool(todo.deleted),
            "wait": todo.wait.map { .string($0.storageText) } ?? .null,
            "series": todo.series.map { .string($0) } ?? .null,
            "origin": todo.origin.map(origin) ?? .null,
            "project": todo.project.map { .string($0) } ?? .null,
            "after": .array(todo.after.map { .string($0) }),
            "annotations": .array(todo.annotations.map { annotation in
                .object(["id": .string(annotation.id), "at": .string(Timestamp.format(annotation.at)), "text": .string(annotation.text)])
            }),
            "intervals": .array(todo.intervals.map { interval in
                .object(["start": .string(Timestamp.format(interval.start)), "end": interval.end.map { .string(Timestamp.format($0)) } ?? .null])
            }),
        ])
    }

    /// Where an imported todo came from: `{"tool", "id", "createdAt"}`.
    static func origin(_ origin: TodoOrigin) -> JSON {
        .object([
            "tool": .string(origin.tool.rawValue),
            "id": .string(origin.id),
            "createdAt": origin.createdAt.map { .string(Timestamp.format($0)) } ?? .null,
        ])
    }

    static func record(_ record: Record) -> JSON {
        var shape: JSONObject = [
            "id": .string(record.id),
            "number": .int(Int64(record.number)),
            "name": .string(record.name),
            "category": .string(record.category),
            "durationSeconds": .int(Int64(record.durationSeconds)),
            "distanceMeters": record.distanceMeters.map { .double(Distance.toMillimetre($0)) } ?? .null,
            "paceSecondsPerKm": record.paceSecondsPerKm.map { .double(($0 * 10).rounded() / 10) } ?? .null,
            "place": record.place.map { .string($0) } ?? .null,
            "date": .string(Timestamp.format(record.date)),
            "note": record.note.map { .string($0) } ?? .null,
            "source": .string(record.source.rawValue),
            "createdAt": .string(Timestamp.format(record.createdAt)),
            "updatedAt": .string(Timestamp.format(record.updatedAt)),
            "deleted": .bool(record.deleted),
            "track": record.track.map { .object(TrackPayload.encode($0)) } ?? .null,
        ]
        if let effort = record.effort { shape["effort"] = .int(Int64(effort)) }
        shape["gear"] = record.gear.map { .string($0) } ?? .null
        if let meters = record.distanceMeters, meters > 0 {
            shape["speedKmh"] = .double((meters / 1000 / (Double(record.durationSeconds) / 3600) * 100).rounded() / 100)
        }
        return .object(shape)
    }

    static func event(_ event: EventEnvelope) -> JSON {
        // The payload as a reader sees it: the salts of commitments left out, an erased value as its marker.
        let data = (try? JSON.parse(event.data)).map { $0.objectValue.map { JSON.object(Commitment.withoutSalts($0)) } ?? $0 } ?? .string(event.data)
        var shape: JSONObject = [
            "seq": .int(event.seq),
            "id": .string(event.id),
            "stream": .string(event.stream),
            "version": .int(Int64(event.version)),
            "type": .string(event.type),
            "schema": .int(Int64(event.schema)),
            "recordedAt": .string(Timestamp.format(event.recordedAt)),
            "actor": .string(event.actor),
            "command": .string(event.command),
            "data": data,
            "hash": .string(event.hash),
        ]
        // A server log records the database role that appended the event.
        if let role = event.role { shape["role"] = .string(role) }
        return .object(shape)
    }
}
