/// The hash chain that makes the log tamper-evident.
///
/// `hash(n) = hex(SHA-256(hash(n-1) ++ canonical(n)))`, with 64 zeros before the
/// first event. `canonical(n)` is the UTF-8 text of a JSON object with exactly the
/// keys `actor, command, data, id, recordedAt, schema, seq, stream, type, version`
/// in that (byte) order, no whitespace, strings escaped as in `JSON.Style.canonical`,
/// and `data` inserted verbatim as stored (it is itself canonical JSON).
public enum EventHash {
    /// The link before the first event.
    public static let genesis = String(repeating: "0", count: 64)

    /// The canonical serialization of an envelope (its `hash` is not part of it).
    public static func canonical(_ event: EventEnvelope) -> String {
        var text = "{\"actor\":"
        text += JSON.string(event.actor).serialized(.canonical)
        text += ",\"command\":"
        text += JSON.string(event.command).serialized(.canonical)
        text += ",\"data\":"
        text += event.data
        text += ",\"id\":"
        text += JSON.string(event.id).serialized(.canonical)
        text += ",\"recordedAt\":"
        text += String(event.recordedAt)
        text += ",\"schema\":"
        text += String(event.schema)
        text += ",\"seq\":"
        text += String(event.seq)
        text += ",\"stream\":"
        text += JSON.string(event.stream).serialized(.canonical)
        text += ",\"type\":"
        text += JSON.string(event.type).serialized(.canonical)
        text += ",\"version\":"
        text += String(event.version)
        text += "}"
        return text
    }

    /// The chain link of `event` given the link before it.
    public static func link(previous: String, _ event: EventEnvelope) -> String {
        var hasher = SHA256()
        hasher.update(previous)
        hasher.update(canonical(event))
        return SHA256.hex(hasher.finalize())
    }
}
