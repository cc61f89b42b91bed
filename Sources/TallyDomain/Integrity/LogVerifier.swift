import TallyEssentials


/// Something wrong with one event of the log, found by `LogVerifier`.
public struct LogProblem: Sendable, Equatable {
    /// What is wrong.
    public enum Kind: Sendable, Equatable {
        /// The event's `seq` is not the one after the previous event's (a row is missing or out of order).
        case sequenceGap(expected: Int64)
        /// The stored `hash` is not the link computed from the previous stored hash and this event.
        case hashMismatch(expected: String, stored: String)
        /// The event's `version` is not the one after the previous event of its stream.
        case versionGap(stream: String, expected: Int, found: Int)
        /// The payload cannot be read as its type and schema.
        case undecodable(type: String, reason: String)
        /// A check plugged into `verify` (such as snapshot + tail against a full replay) failed.
        case failedCheck(name: String, detail: String)
        /// Not a problem but a note: the payload holds a value past today's limits, which every
        /// reader reads normalised (`LegacyValues`); `reason` is the first limit it breaks.
        case legacyValue(type: String, reason: String)
    }

    /// The event the problem is about (0 when it is about the log as a whole).
    public var seq: Int64
    public var kind: Kind

    public init(seq: Int64, kind: Kind) {
        self.seq = seq
        self.kind = kind
    }

    /// A stable machine name for `--json`: `sequence`, `hash`, `version`, `decode`, or the check's name.
    public var code: String {
        switch kind {
        case .sequenceGap: "sequence"
        case .hashMismatch: "hash"
        case .versionGap: "version"
        case .undecodable: "decode"
        case .failedCheck(let name, _): name
        case .legacyValue: "legacy-value"
        }
    }
}

/// Checks a log one event at a time, in log order: the hash chain, `seq` 1...N without gaps,
/// per-stream versions without gaps, and that every payload decodes. Pure.
///
/// Each link is recomputed from the previous *stored* hash, so one altered event is reported
/// once rather than breaking every link after it. Decodable events are folded into `replay`,
/// which plugged-in checks compare against.
/// - Complexity: O(1) per event plus the payload size; memory O(streams).
public struct LogVerifier {
    public private(set) var problems: [LogProblem] = []
    /// Events that hold a value past today's limits, which every reader reads normalised
    /// (`LegacyValues`): not a problem, the log is intact; `verify` mentions them.
    public private(set) var notes: [LogProblem] = []
    public private(set) var count = 0
    /// The last event seen: its position and stored hash.
    public private(set) var head = LogHead.empty
    /// The read models folded from every decodable event.
    public private(set) var replay = ReadModel()
    private var versions: [String: Int] = [:]
    /// Erased values not yet accounted for by a `history.redacted` event: "stream field" → positions.
    private var erasures: [String: [Int64]] = [:]
    /// How many values the log holds erased (each accounted for by a redaction event).
    public private(set) var redactedValues = 0

    public init() {}

    /// Checks the next event of the log.
    public mutating func check(_ event: EventEnvelope) {
        count += 1
        if event.seq != head.seq + 1 {
            problems.append(LogProblem(seq: event.seq, kind: .sequenceGap(expected: head.seq + 1)))
        }
        // A payload with commitments is parsed once, for its committed form, its checks and its decoding.
        var parsed: JSONObject?
        var committed: String?
        if Commitment.isCommitted(event.data), case .object(let object)? = try? JSON.parse(event.data) {
            parsed = object
            committed = Commitment.committedForm(object).serialized(.canonical)
            checkCommitments(event, object)
        }
        let link = EventHash.link(previous: head.hash, event, committed: committed)
        if link != event.hash {
            problems.append(LogProblem(seq: event.seq, kind: .hashMismatch(expected: link, stored: event.hash)))
        }
        let expected = (versions[event.stream] ?? 0) + 1
        if event.version != expected {
            problems.append(LogProblem(seq: event.seq, kind: .versionGap(stream: event.stream, expected: expected, found: event.version)))
        }
        versions[event.stream] = event.version
        if event.type == "history.redacted" { accountForRedaction(event) }
        do {
            let stored = if let parsed {
                try EventCatalog.decodeAsStored(type: event.type, schema: event.schema, data: parsed)
            } else {
                try EventCatalog.decodeAsStored(event)
            }
            var read = stored
            if let normalised = LegacyValues.normalised(stored) {
                read = normalised
                notes.append(LogProblem(seq: event.seq, kind: .legacyValue(type: event.type, reason: LegacyValues.note(stored) ?? "")))
            }
            Reducer.evolve(&replay, read, stream: event.stream, version: event.version, seq: event.seq, at: event.recordedAt)
        } catch {
            problems.append(LogProblem(seq: event.seq, kind: .undecodable(type: error.type, reason: error.reason)))
        }
        head = LogHead(seq: event.seq, hash: event.hash)
    }

    /// A payload with commitments is hashed in its committed form, so its stored bytes must be
    /// canonical (no other spelling of the same values may hide in it), and each erased value must
    /// be accounted for by a later `history.redacted` event (`finish` reports those that are not).
    private mutating func checkCommitments(_ event: EventEnvelope, _ object: JSONObject) {
        if JSON.object(object).serialized(.canonical) != event.data {
            problems.append(LogProblem(seq: event.seq, kind: .failedCheck(name: "canonical", detail: "the payload with commitments is not in canonical form")))
        }
        for (key, value) in object.pairs where Commitment.isMarker(value) {
            var name = "\(event.stream) \(Commitment.field(ofKey: key, type: event.type))"
            // An annotation's text is accounted for by a redaction of all the todo's annotations or of that one.
            if event.type == "todo.annotated", let id = object["id"]?.stringValue { name += " \(id)" }
            erasures[name, default: []].append(event.seq)
        }
    }

    private mutating func accountForRedaction(_ event: EventEnvelope) {
        guard case .historyRedacted(let facts)? = try? EventCatalog.decode(event) else {
            // (Besides the `decode` problem: what it means. Every store refuses to append one.)
            problems.append(LogProblem(seq: event.seq, kind: .failedCheck(
                name: "redaction", detail: "a redaction that cannot be read: the values it names may not have been erased")))
            return
        }
        let key = "\(facts.stream) \(facts.field)"
        if facts.field == Commitment.annotationsField {
            let names = facts.annotation.map { ["\(key) \($0)"] } ?? erasures.keys.filter { $0.hasPrefix(key + " ") }
            for name in names {
                redactedValues += erasures[name]?.count ?? 0
                erasures[name] = nil
            }
            return
        }
        redactedValues += erasures[key]?.count ?? 0
        erasures[key] = nil
    }

    /// Reports erased values that no `history.redacted` event accounts for: a value removed from
    /// the store some other way. Call once after the last event.
    public mutating func finish() {
        for seqs in erasures.values {
            for seq in seqs {
                problems.append(LogProblem(seq: seq, kind: .failedCheck(name: "redaction", detail: "a value was erased without a history.redacted event after it")))
            }
        }
        erasures = [:]
        problems.sort { $0.seq < $1.seq }
    }

    /// Adds problems found by a check outside the chain.
    public mutating func record(_ more: [LogProblem]) {
        problems.append(contentsOf: more)
    }

    /// True when nothing is wrong.
    public var isIntact: Bool { problems.isEmpty }
}
