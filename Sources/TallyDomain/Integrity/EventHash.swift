import TallyEssentials

/// The hash chain that makes the log tamper-evident.
///
/// `hash(n) = hex(SHA-256(hash(n-1) ++ canonical(n)))`, with 64 zeros before the
/// first event. `canonical(n)` is the UTF-8 text of a JSON object with exactly the
/// keys `actor, command, data, id, recordedAt, schema, seq, stream, type, version`
/// in that (byte) order, no whitespace, strings escaped as in `JSON.Style.canonical`,
/// and `data` inserted as stored (it is itself canonical JSON), or, for a payload that carries
/// salted commitments, its committed form (`Commitment`), so erasing a value changes no link.
public enum EventHash {
    /// The link before the first event.
    public static let genesis = String(repeating: "0", count: 64)

    /// The canonical serialization of an envelope (its `hash` is not part of it).
    public static func canonical(_ event: EventEnvelope) -> String {
        var writer = JSONWriter(style: .canonical)
        write(event, to: &writer)
        return String(decoding: writer.output, as: UTF8.self)
    }

    /// Writes the canonical bytes straight into `writer`: no `String` per field (a bulk import
    /// hashes every event, and building the text field by field cost as much as the hash).
    static func write(_ event: EventEnvelope, committed: String? = nil, to writer: inout JSONWriter) {
        writer.append("{\"actor\":")
        writer.writeString(event.actor)
        writer.append(",\"command\":")
        writer.writeString(event.command)
        writer.append(",\"data\":")
        if let committed = committed ?? Commitment.committedForm(event.data) {
            writer.output.append(contentsOf: committed.utf8)
        } else {
            writer.output.append(contentsOf: event.data.utf8)
        }
        writer.append(",\"id\":")
        writer.writeString(event.id)
        writer.append(",\"recordedAt\":")
        writer.writeInteger(event.recordedAt)
        writer.append(",\"schema\":")
        writer.writeInteger(Int64(event.schema))
        writer.append(",\"seq\":")
        writer.writeInteger(event.seq)
        writer.append(",\"stream\":")
        writer.writeString(event.stream)
        writer.append(",\"type\":")
        writer.writeString(event.type)
        writer.append(",\"version\":")
        writer.writeInteger(Int64(event.version))
        writer.append("}")
    }

    /// The chain link of `event` given the link before it.
    /// `committed` is the payload's committed form when the caller has it already (a new event's
    /// payload object), to spare parsing the text again.
    public static func link(previous: String, _ event: EventEnvelope, committed: String? = nil) -> String {
        var writer = JSONWriter(style: .canonical)
        writer.output.reserveCapacity(event.data.utf8.count + 320)
        write(event, committed: committed, to: &writer)
        var hasher = SHA256()
        hasher.update(previous)
        hasher.update(writer.output)
        return SHA256.hex(hasher.finalize())
    }
}
