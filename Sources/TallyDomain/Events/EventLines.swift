import TallyEssentials

/// An event read from an export line: everything but `seq` and `hash`, which the importing log assigns.
public struct ImportedEvent: Sendable, Equatable {
    public var id: String
    public var stream: String
    public var version: Int
    public var type: String
    public var schema: Int
    /// The payload as canonical JSON text, the form the log stores and hashes.
    public var data: String
    public var recordedAt: Int64
    public var actor: String
    public var command: String

    public init(id: String, stream: String, version: Int, type: String, schema: Int, data: String, recordedAt: Int64, actor: String, command: String) {
        self.id = id
        self.stream = stream
        self.version = version
        self.type = type
        self.schema = schema
        self.data = data
        self.recordedAt = recordedAt
        self.actor = actor
        self.command = command
    }

    /// True when `envelope` records the same fact: every field but `seq` and `hash` is equal.
    public func sameContent(as envelope: EventEnvelope) -> Bool {
        id == envelope.id && stream == envelope.stream && version == envelope.version && type == envelope.type
            && schema == envelope.schema && Commitment.samePayload(data, envelope.data) && recordedAt == envelope.recordedAt
            && actor == envelope.actor && command == envelope.command
    }

    /// The envelope this event becomes at `seq` after the link `previous`.
    public func envelope(seq: Int64, previous: String) -> EventEnvelope {
        var envelope = EventEnvelope(
            seq: seq, id: id, stream: stream, version: version, type: type, schema: schema, data: data,
            recordedAt: recordedAt, actor: actor, command: command, hash: ""
        )
        envelope.hash = EventHash.link(previous: previous, envelope)
        return envelope
    }
}

/// Why one line of an export cannot be imported.
public struct EventLineError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String

    public var description: String { reason }

    public init(_ reason: String) {
        self.reason = reason
    }
}

/// The JSON Lines interchange format of `export` and `import`: one event object per line,
/// `{"seq","id","stream","version","type","schema","recordedAt","actor","command","data","hash"}`.
public enum EventLines {
    /// One line (without the newline). `data` is written as stored, so the text is produced without re-parsing.
    /// - Complexity: O(size of the event).
    public static func encode(_ event: EventEnvelope) -> String {
        var line = "{\"seq\":"
        line += String(event.seq)
        line += ",\"id\":" + quoted(event.id)
        line += ",\"stream\":" + quoted(event.stream)
        line += ",\"version\":" + String(event.version)
        line += ",\"type\":" + quoted(event.type)
        line += ",\"schema\":" + String(event.schema)
        line += ",\"recordedAt\":" + quoted(Timestamp.format(event.recordedAt))
        line += ",\"actor\":" + quoted(event.actor)
        line += ",\"command\":" + quoted(event.command)
        line += ",\"data\":" + event.data
        line += ",\"hash\":" + quoted(event.hash)
        line += "}"
        return line
    }

    /// Reads one line: checks every field's presence and type, that the payload decodes
    /// (upcast from older schemas, figures past today's limits read as `LegacyValues` reads them,
    /// as the log will read the stored line) as an event of a known type, and that this event
    /// obeys `EventRules`. The payload is kept as the line's canonical text, so hashes hold.
    /// `seq` and `hash` may be absent or null. Lines of the plain shape `export` writes are read
    /// without a JSON tree (`EventLineScanner`); the tree decides everything else.
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(EventLineError) -> ImportedEvent {
        if let event = EventLineScanner.decode(bytes) { return event }
        return try decodeTree(bytes)
    }

    /// Reads one line through a JSON tree: the definition of a valid line and of its errors.
    static func decodeTree(_ bytes: UnsafeBufferPointer<UInt8>) throws(EventLineError) -> ImportedEvent {
        let value: JSON
        do {
            value = try JSON.parse(utf8: bytes)
        } catch {
            throw EventLineError("not valid JSON (\(error.description))")
        }
        guard case .object(let object) = value else { throw EventLineError("not a JSON object") }
        let fields = Fields(object: object)
        if let seq = object["seq"], !seq.isNull, seq.intValue == nil { throw EventLineError("field 'seq' is not an integer") }
        if let hash = object["hash"], !hash.isNull, hash.stringValue == nil { throw EventLineError("field 'hash' is not a string") }
        let type = try fields.text("type")
        let schema = try fields.positive("schema")
        guard let data = object["data"] else { throw EventLineError("missing field 'data'") }
        guard case .object(let payload) = data else { throw EventLineError("field 'data' is not an object") }
        let event: DomainEvent
        do {
            event = try EventCatalog.decode(type: type, schema: schema, data: payload)
        } catch {
            throw EventLineError("\(type) schema \(schema): \(error.reason)")
        }
        let stamp = try fields.text("recordedAt")
        guard let recordedAt = Timestamp.parse(stamp) else { throw EventLineError("field 'recordedAt' is not an ISO-8601 instant") }
        let imported = ImportedEvent(
            id: try fields.text("id"), stream: try fields.text("stream"), version: try fields.positive("version"),
            type: type, schema: schema, data: data.serialized(.canonical), recordedAt: recordedAt,
            actor: try fields.text("actor"), command: try fields.text("command")
        )
        try EventRules.check(event, id: imported.id, stream: imported.stream, command: imported.command, actor: imported.actor)
        return imported
    }

    /// The times `encode` can write: outside, the calendar arithmetic of `Timestamp.format` would
    /// overflow (no such time is valid: only 0001 to 9999 reads back).
    public static let writableTimes: ClosedRange<Int64> = (Int64.min / 2)...(Int64.max / 2)

    /// True when `decode` would take `encode(event)`: the checks of `decodeTree`, made on the
    /// envelope's fields without writing the line and reading it back (a clone checks every
    /// pulled event so). Stricter in one way: `data` must be one JSON object on its own, where a
    /// line could also hide members after it. On false, `decode` of the line tells why.
    /// - Complexity: O(size of the event).
    public static func accepts(_ event: EventEnvelope) -> Bool {
        guard !event.type.isEmpty, (1...Int(Int32.max)).contains(event.schema), (1...Int(Int32.max)).contains(event.version),
              !event.id.isEmpty, !event.stream.isEmpty, !event.actor.isEmpty, !event.command.isEmpty,
              writableTimes.contains(event.recordedAt), Timestamp.parse(Timestamp.format(event.recordedAt)) != nil
        else { return false }
        var data = event.data
        // The plain payloads without a JSON tree (`PayloadScanner` takes a subset of what the tree does).
        let decoded = data.withUTF8 { bytes -> DomainEvent? in
            if let event = PayloadScanner.decode(type: event.type, schema: event.schema, utf8: bytes) { return event }
            guard case .object(let payload)? = try? JSON.parse(utf8: bytes, depth: 1) else { return nil }
            return try? EventCatalog.decode(type: event.type, schema: event.schema, data: payload)
        }
        guard let decoded else { return false }
        do {
            try EventRules.check(decoded, id: event.id, stream: event.stream, command: event.command, actor: event.actor)
        } catch {
            return false
        }
        return true
    }

    private static func quoted(_ text: String) -> String {
        JSON.string(text).serialized(.compact)
    }

    private struct Fields {
        let object: JSONObject

        func text(_ key: String) throws(EventLineError) -> String {
            guard let value = object[key] else { throw EventLineError("missing field '\(key)'") }
            guard let text = value.stringValue, !text.isEmpty else { throw EventLineError("field '\(key)' is not a non-empty string") }
            return text
        }

        func positive(_ key: String) throws(EventLineError) -> Int {
            guard let value = object[key] else { throw EventLineError("missing field '\(key)'") }
            guard let number = value.intValue, number >= 1, number <= Int64(Int32.max) else {
                throw EventLineError("field '\(key)' is not a whole number of at least 1")
            }
            return Int(number)
        }
    }
}
