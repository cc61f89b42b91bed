import Foundation
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// A `tally export` file of made-up history, for tests that need a large import.
///
/// Every file has ids of its own (streams, events, commands), so each one imports in full into
/// any log and never clashes with another: importing the same file again would append nothing.
/// The events are grouped into commands of one to three, as tally itself writes them: a todo
/// created (and sometimes completed by the same command), or an activity logged.
struct GeneratedExport {
    /// The event ids in file order.
    let ids: [String]
    /// How many events each command id holds.
    let commandSizes: [String: Int]

    /// Writes `count` events (a few more when the last command needs them) to `path`.
    init(events count: Int, path: String, random: inout SeededRandom) throws {
        var lines: [String] = []
        var ids: [String] = []
        var sizes: [String: Int] = [:]
        var head = LogHead.empty
        func append(_ event: DomainEvent, stream: String, version: Int, command: String) {
            let type = EventCatalog.typeName(of: event)
            var envelope = EventEnvelope(
                seq: head.seq + 1, id: Self.uuid(&random), stream: stream, version: version, type: type,
                schema: EventCatalog.currentSchemas[type] ?? 1,
                data: JSON.object(EventCatalog.payload(of: event)).serialized(.canonical),
                recordedAt: Fixtures.epoch + head.seq * 1000, actor: "import@crash", command: command, hash: ""
            )
            envelope.hash = EventHash.link(previous: head.hash, envelope)
            head = LogHead(seq: envelope.seq, hash: envelope.hash)
            lines.append(EventLines.encode(envelope))
            ids.append(envelope.id)
            sizes[command, default: 0] += 1
        }
        while ids.count < count {
            let command = Self.uuid(&random)
            let stream = Self.uuid(&random)
            let label = "generated \(ids.count)"
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                append(.recordLogged(RecordFields(name: label, category: "running", durationSeconds: 1800, date: Fixtures.epoch)), stream: stream, version: 1, command: command)
            case 1:
                append(.todoCreated(TodoFields(title: label, tags: ["import"])), stream: stream, version: 1, command: command)
                append(.todoCompleted, stream: stream, version: 2, command: command)
            case 2:
                let other = Self.uuid(&random)
                append(.todoCreated(TodoFields(title: label)), stream: stream, version: 1, command: command)
                append(.todoCreated(TodoFields(title: label + "b")), stream: other, version: 1, command: command)
                append(.todoCompleted, stream: other, version: 2, command: command)
            default:
                append(.todoCreated(TodoFields(title: label, note: "from a generated export")), stream: stream, version: 1, command: command)
            }
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        self.ids = ids
        self.commandSizes = sizes
    }

    /// A lowercase random UUID (version 4 layout) drawn from `random`, so a seed replays the same file.
    static func uuid(_ random: inout SeededRandom) -> String {
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        let digits = Array(hex(random.next()) + hex(random.next()))
        return String(digits[0..<8]) + "-" + String(digits[8..<12]) + "-4" + String(digits[13..<16]) + "-8"
            + String(digits[17..<20]) + "-" + String(digits[20..<32])
    }
}
