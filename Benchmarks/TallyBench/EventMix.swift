import TallyDomain
import TallyEssentials

/// The bench draws its stores from the product's seeded generator: the same seed gives the same store.
typealias SplitMix = SplitMix64

extension SplitMix64 {
    /// A random version-4 UUID in lowercase text.
    mutating func uuid() -> String {
        let high = (next() & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let low = (next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return String(unsafeUninitializedCapacity: 36) { out in
            let digits: StaticString = "0123456789abcdef"
            let table = digits.utf8Start
            var position = 0
            for index in 0..<32 {
                if index == 8 || index == 12 || index == 16 || index == 20 {
                    out[position] = UInt8(ascii: "-")
                    position += 1
                }
                let word = index < 16 ? high : low
                let nibble = Int((word >> UInt64(60 - 4 * (index % 16))) & 0xF)
                out[position] = table[nibble]
                position += 1
            }
            return 36
        }
    }
}

/// A realistic history: `todos` creations spread evenly over `events` events, the rest edits,
/// completions, reopenings, deletions and restorations of random earlier todos.
struct EventMix {
    let todos: Int
    let events: Int
    let seed: UInt64

    /// Every event as an envelope with seq, ids, payload and times set and `hash` empty.
    /// - Complexity: O(events).
    func envelopes() -> [EventEnvelope] {
        var random = SplitMix(seed: seed)
        var streams: [String] = []
        var versions: [Int] = []
        var completed: [Bool] = []
        var deleted: [Bool] = []
        streams.reserveCapacity(todos)
        var result: [EventEnvelope] = []
        result.reserveCapacity(events)
        let start: Int64 = 1_767_225_600_000
        let words = ["Buy", "milk", "call", "Bob", "fix", "bike", "plan", "trip", "read", "book", "pay", "rent", "write", "report"]
        let tags = ["home", "work", "shop", "errand", "health"]
        var command = random.uuid()
        for index in 0..<events {
            let stream: Int
            let event: DomainEvent
            if (index + 1) * todos / events > index * todos / events || streams.isEmpty {
                stream = streams.count
                streams.append(random.uuid())
                versions.append(0)
                completed.append(false)
                deleted.append(false)
                let title = (0..<Int.random(in: 2...5, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
                event = .todoCreated(TodoFields(
                    title: title + " \(stream + 1)",
                    tags: Int.random(in: 0..<3, using: &random) == 0 ? [tags.randomElement(using: &random)!] : [],
                    priority: [nil, nil, .low, .medium, .high].randomElement(using: &random)!,
                    due: Int.random(in: 0..<4, using: &random) == 0 ? .date(LocalDate(year: 2027, month: Int.random(in: 1...12, using: &random), day: Int.random(in: 1...28, using: &random))!) : nil
                ))
            } else {
                stream = Int.random(in: 0..<streams.count, using: &random)
                let roll = Int.random(in: 0..<100, using: &random)
                switch roll {
                case 0..<40:
                    event = completed[stream] ? .todoReopened : .todoCompleted
                    completed[stream].toggle()
                case 40..<45:
                    event = deleted[stream] ? .todoRestored : .todoDeleted
                    deleted[stream].toggle()
                case 45..<80:
                    event = .todoEdited(TodoChanges(title: "Edited \(words.randomElement(using: &random)!) \(stream + 1)"))
                default:
                    event = .todoEdited(TodoChanges(tags: [tags.randomElement(using: &random)!], priority: .some([.low, .medium, .high].randomElement(using: &random)!)))
                }
            }
            versions[stream] += 1
            if index % 3 == 0 { command = random.uuid() }
            let type = EventCatalog.typeName(of: event)
            result.append(EventEnvelope(
                seq: Int64(index + 1), id: random.uuid(), stream: streams[stream], version: versions[stream], type: type,
                schema: EventCatalog.currentSchemas[type] ?? 1,
                data: JSON.object(EventCatalog.payload(of: event)).serialized(.canonical),
                recordedAt: start + Int64(index) * 1000, actor: "bench@host", command: command, hash: ""
            ))
        }
        return result
    }
}
