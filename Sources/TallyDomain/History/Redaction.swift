import TallyEssentials

/// Erasing one field's every past value from an item's events (`tally redact`).
///
/// The erasure itself is `Commitment.erase` on each payload; this is the rule of what a
/// `history.redacted` event erases, shared by every store that applies one (the command's own
/// append, a sync's pull or push, an import): the value of `field` in **every event of `stream`
/// before the redaction event**. `RedactionFacts.events` lists the positions as they were when
/// the redaction was made, for people; the rule does not depend on them, so a redaction that a
/// sync moves to a later position still erases everything before it, a teammate's concurrent
/// edit included.
public enum Redaction {
    /// The fields a todo (and its series) can have erased; `annotations` erases the text of every
    /// annotation (`todo.annotated`'s `text`).
    public static let todoFields = ["title", "note", "tags", "project", Commitment.annotationsField]
    /// The fields a record can have erased.
    public static let recordFields = ["name", "place", "note"]
    /// The `field` of a redaction that erases a record's kept activity files (`redact --file`)
    /// instead of a payload value: the files its events name (`track.sha256`) leave the blob store.
    public static let fileField = "file"

    /// The kept activity files the events of a record name, with the events that name them.
    public static func files(in events: [EventEnvelope]) -> (names: [String], events: [Int64]) {
        var names: [String] = []
        var seqs: [Int64] = []
        for event in events where event.type == "record.logged" || event.type == "record.edited" {
            let track: TrackSummary? = switch try? EventCatalog.decode(event) {
            case .recordLogged(let fields)?: fields.track
            case .recordEdited(let changes)?: changes.track
            default: nil
            }
            guard let name = track?.sha256 else { continue }
            if !names.contains(name) { names.append(name) }
            seqs.append(event.seq)
        }
        return (names, seqs)
    }

    /// What a redaction of `field` finds in the events of one stream.
    public struct Plan: Sendable, Equatable {
        /// Events whose value is erased by it, with their new payload text.
        public var erased: [(seq: Int64, data: String)]
        /// Events whose value was erased before.
        public var alreadyErased: [Int64]
        /// Events whose value has no commitment (written before commitments) and so cannot be erased.
        public var uncommitted: [Int64]

        public static func == (lhs: Plan, rhs: Plan) -> Bool {
            lhs.erased.map(\.seq) == rhs.erased.map(\.seq) && lhs.erased.map(\.data) == rhs.erased.map(\.data)
                && lhs.alreadyErased == rhs.alreadyErased && lhs.uncommitted == rhs.uncommitted
        }
    }

    /// The erasures of `field` in `events` (the stream's events before the redaction); with
    /// `annotation`, only in the `todo.annotated` events of that annotation.
    /// The facts of a `history.redacted` event as a store's `append` carries it out; a redaction it
    /// cannot read refuses the append (`EventLogError.unreadableRedaction`), never a silent skip.
    public static func facts(of event: EventEnvelope) throws(EventLogError) -> RedactionFacts {
        let decoded: DomainEvent
        do {
            decoded = try EventCatalog.decode(event)
        } catch {
            throw .unreadableRedaction(seq: event.seq, reason: error.reason)
        }
        guard case .historyRedacted(let facts) = decoded else { throw .unreadableRedaction(seq: event.seq, reason: "not a redaction") }
        return facts
    }

    public static func plan(field: String, annotation: String? = nil, in events: [EventEnvelope]) -> Plan {
        var plan = Plan(erased: [], alreadyErased: [], uncommitted: [])
        for event in events {
            guard let key = Commitment.key(ofField: field, type: event.type) else { continue }
            if let annotation, annotationID(of: event) != annotation { continue }
            switch Commitment.erase(key, from: event.data) {
            case .erased(let data): plan.erased.append((event.seq, data))
            case .alreadyErased: plan.alreadyErased.append(event.seq)
            case .uncommitted: plan.uncommitted.append(event.seq)
            case .absent: break
            }
        }
        return plan
    }

    /// The id of the annotation a `todo.annotated` event adds, nil for other events.
    public static func annotationID(of event: EventEnvelope) -> String? {
        guard event.type == "todo.annotated", case .object(let object)? = try? JSON.parse(event.data) else { return nil }
        return object["id"]?.stringValue
    }

    /// Why a redaction event breaks the limits (the English reason), or nil.
    public static func problem(_ facts: RedactionFacts) -> String? {
        guard UUIDBytes.pack(facts.stream) != nil else { return "field 'stream' of a redaction is not a lowercase UUID" }
        guard (todoFields + recordFields + [fileField]).contains(facts.field) else { return "field 'field' of a redaction is not one that can be erased" }
        if let annotation = facts.annotation {
            guard facts.field == Commitment.annotationsField, UUIDBytes.pack(annotation) != nil else {
                return "field 'annotation' of a redaction is not a lowercase UUID with field 'annotations'"
            }
        }
        guard facts.events.count <= RedactionFacts.maxEvents else { return "a redaction names more than \(RedactionFacts.maxEvents) events" }
        guard facts.events.allSatisfy({ $0 > 0 }), zip(facts.events, facts.events.dropFirst()).allSatisfy({ $0 < $1 }) else {
            return "field 'events' of a redaction is not ascending positions"
        }
        if let reason = facts.reason {
            guard Validation.length(reason) <= RedactionFacts.maxReasonLength, !reason.unicodeScalars.contains(where: Validation.isControl) else {
                return "the reason of a redaction is longer than \(RedactionFacts.maxReasonLength) characters or contains control characters"
            }
        }
        return nil
    }
}
