import Foundation
import TallyDomain
@testable import TallyEssentials

/// The committed fixed event log the reducer-version golden test folds (`Tests/Fixtures/reducer-golden`).
///
/// One event per line in the `export` shape. The file never changes once committed: when the
/// event catalog grows, new events are appended at the end (with their chained hashes).
public enum GoldenLog {
    public static let eventsURL = PackageFiles.url("Tests/Fixtures/reducer-golden/events.jsonl")
    /// Events as earlier versions wrote them, with values past today's limits (`LegacyValues`),
    /// chained after the last event of `events.jsonl`; the reducer digest folds them too.
    public static let legacyURL = PackageFiles.url("Tests/Fixtures/reducer-golden/legacy.jsonl")
    public static let digestsURL = PackageFiles.url("Tests/Fixtures/reducer-golden/digests.txt")

    /// The fixture's events in log order.
    public static func events() throws -> [EventEnvelope] {
        let text = try String(contentsOf: eventsURL, encoding: .utf8)
        return try text.split(separator: "\n").map { line in try envelope(String(line)) }
    }

    /// Folds the fixture into fresh read models.
    public static func folded(through last: Int64 = .max) throws -> ReadModel {
        var model = ReadModel()
        for envelope in try events() where envelope.seq <= last { try Reducer.evolve(&model, envelope) }
        return model
    }

    /// The fixture's length when the snapshot layout was last pinned: the layout test folds this
    /// prefix, so events appended later for new event types change the reducer digest, not the layout's.
    public static let layoutPrefix: Int64 = 583

    /// The fixture followed by the legacy events, folded: what the reducer digest covers.
    public static func foldedWithLegacy() throws -> ReadModel {
        var model = try folded()
        let text = try String(contentsOf: legacyURL, encoding: .utf8)
        for line in text.split(separator: "\n") { try Reducer.evolve(&model, try envelope(String(line))) }
        return model
    }

    /// `reducer version -> digest` pairs from `digests.txt` (lines `VERSION HEX`; `#` starts a comment).
    public static func digests() throws -> [Int: String] {
        var result: [Int: String] = [:]
        for line in try String(contentsOf: digestsURL, encoding: .utf8).split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let version = Int(parts[0]) else { continue }
            result[version] = String(parts[1])
        }
        return result
    }

    /// The digest the golden test compares: SHA-256 of the canonical dump of every stored property.
    public static func digest(_ model: ReadModel) -> String {
        SHA256.hexDigest(ModelDump.text(model))
    }

    /// One line of the fixture in the `export` shape.
    public static func line(_ event: EventEnvelope) -> String {
        let data = (try? JSON.parse(event.data)) ?? .null
        return JSON.object([
            "seq": .int(event.seq), "id": .string(event.id), "stream": .string(event.stream),
            "version": .int(Int64(event.version)), "type": .string(event.type), "schema": .int(Int64(event.schema)),
            "recordedAt": .string(Timestamp.format(event.recordedAt)), "actor": .string(event.actor),
            "command": .string(event.command), "data": data, "hash": .string(event.hash),
        ]).serialized(.compact)
    }

    struct MalformedLine: Error {
        var line: String
    }

    public static func envelope(_ line: String) throws -> EventEnvelope {
        guard case .object(let object) = try JSON.parse(line),
              let seq = object["seq"]?.intValue, let id = object["id"]?.stringValue,
              let stream = object["stream"]?.stringValue, let version = object["version"]?.intValue,
              let type = object["type"]?.stringValue, let schema = object["schema"]?.intValue,
              let recorded = object["recordedAt"]?.stringValue, let recordedAt = Timestamp.parse(recorded),
              let actor = object["actor"]?.stringValue, let command = object["command"]?.stringValue,
              let data = object["data"], let hash = object["hash"]?.stringValue
        else { throw MalformedLine(line: line) }
        return EventEnvelope(
            seq: seq, id: id, stream: stream, version: Int(version), type: type, schema: Int(schema),
            data: data.serialized(.canonical), recordedAt: recordedAt, actor: actor, command: command, hash: hash
        )
    }
}
