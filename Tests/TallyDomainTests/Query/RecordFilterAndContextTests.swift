import TallyEssentials
import Testing
import TallyTestSupport
@testable import TallyDomain

/// 2026-11-21T14:30:00Z, a Saturday.
private let now: Int64 = 1_795_271_400_000
private let utc = Zone.utc
private let day: Int64 = 86_400_000

private func records(_ text: String, _ syntax: FilterSyntax = .english) throws(FilterError) -> FilterExpression {
    try FilterParser.parse(text, syntax: syntax, subject: .records, dates: (now, utc))
}

private func recordFailure(_ text: String) -> FilterError? {
    do {
        _ = try records(text)
        return nil
    } catch {
        return error
    }
}

private func record(_ number: Int, _ name: String, _ category: String, daysAgo: Int64, place: String? = nil, note: String? = nil,
                    source: RecordSource = .local, deleted: Bool = false) -> Record {
    Record(id: "r\(number)", number: number, name: name, category: category, durationSeconds: 1800, place: place,
           date: now - daysAgo * day, note: note, source: source, createdAt: now, updatedAt: now, deleted: deleted)
}

@Suite struct RecordFilterTests {
    let sample = [
        record(1, "Morning run", "running", daysAgo: 1, place: "Stromovka"),
        record(2, "Ride to the lake", "cycling", daysAgo: 3, note: "Windy"),
        record(3, "Evening run", "running", daysAgo: 10, source: .import),
        record(4, "Swim", "swimming", daysAgo: 0, deleted: true),
    ]

    func matching(_ text: String) throws -> [Int] {
        let program = try FilterProgram(try records(text), now: now, zone: utc)
        return sample.filter(program.matches).map(\.number)
    }

    @Test("category, source, dates, status and words select records; and, or, not as for todos")
    func terms() throws {
        #expect(try matching("category:running") == [1, 3])
        #expect(try matching("category:RUNNING -source:import") == [1])
        #expect(try matching("source:import or category:cycling") == [2, 3])
        #expect(try matching("date.after:-5d") == [1, 2, 4])
        #expect(try matching("date.before:-2d") == [2, 3])
        #expect(try matching("date:yesterday") == [1])
        #expect(try matching("date:2026-11-18") == [2])
        #expect(try matching("stromovka or windy") == [1, 2])
        #expect(try matching("lake") == [2])
        #expect(try matching("run not evening") == [1])
        #expect(try matching("status:deleted") == [4])
        #expect(try records("status:deleted").namesDeleted)
    }

    @Test("Czech field names read as the English ones; the canonical form parses back")
    func czechAndCanonical() throws {
        #expect(try records("kategorie:running nebo zdroj:importovaný", .czech) == records("category:running or source:import"))
        #expect(try records("datum.po:-1w ne datum:2026-11-20", .czech) == records("date.after:-1w not date:2026-11-20"))
        for text in ["category:running or (source:import date.after:\"in 2 days\")", "-date.before:2026-11-01 \"or\"", "status:deleted lake"] {
            let expression = try records(text)
            #expect(try records(expression.canonical) == expression, "\(text) → \(expression.canonical)")
        }
    }

    @Test("todo fields are refused for records and record fields for todos, pointing at the field")
    func wrongSubject() throws {
        #expect(recordFailure("run tag:x")?.key == .todoField)
        #expect(recordFailure("run tag:x")?.offset == 4)
        #expect(recordFailure("priority:H")?.key == .todoField)
        #expect(recordFailure("status:pending")?.key == .invalidStatus)
        #expect(recordFailure("status:pending")?.arguments["values"] == "deleted")
        #expect(recordFailure("category:Běh")?.key == .invalidCategory)
        #expect(recordFailure("source:gpx")?.key == .invalidSource)
        #expect(recordFailure("date:someday")?.key == .invalidWhen)
        #expect(recordFailure("color:red")?.key == .unknownField)
        #expect(recordFailure("color:red")?.arguments["fields"] == "category, source, date, date.before, date.after, status")
        do {
            _ = try FilterParser.parse("x category:running", subject: .todos)
            Issue.record("a record field parsed as a todo filter")
        } catch {
            #expect(error.key == .recordField && error.offset == 2)
        }
    }

    @Test("a saved record view keeps its expression; the stored rules refuse one that does not parse as records")
    func savedView() throws {
        var query = RecordQuery()
        query.expression = try records("category:running -lake")
        #expect(RecordQuery(json: query.json) == query)
        #expect(throws: EventLineError.self) { try EventRules.savedFilter(["expression": "tag:x"], scope: .records) }
        try EventRules.savedFilter(["expression": "category:running"], scope: .records)
    }
}

@Suite struct TodoContextsTests {
    @Test("a 0.9 saved view is read as the context default, active; the new shape reads back as written")
    func upcast() throws {
        let old: JSONObject = ["status": "active", "sort": "priority", "expression": "-tag:someday"]
        let contexts = TodoContexts(json: old)
        #expect(contexts.active == "default")
        #expect(contexts.names == ["default"])
        #expect(contexts.activeView == TodoQuery(json: old))
        #expect(contexts.activeFilter?.canonical == "status:pending -tag:someday")
        // As the saved view, it narrows nothing but a bare list.
        #expect(contexts.narrowing == nil)
        #expect(TodoContexts(views: ["work": TodoQuery(status: .active)], active: "work").narrowing?.canonical == "status:pending")
        #expect(TodoContexts(json: contexts.json) == contexts)
        #expect(TodoContexts.upcast(contexts.json!) == contexts.json!)
        #expect(TodoContexts(json: nil) == TodoContexts())
        #expect(TodoContexts().json == nil)
        // An active name that names no context reads as none.
        #expect(TodoContexts(json: ["contexts": .object(["work": .object([:])]), "active": "home"]).active == nil)
    }

    @Test("the stored rules check names, expressions and the active context")
    func rules() throws {
        try EventRules.savedFilter(["contexts": .object(["work": .object(["expression": "project:work"])]), "active": "work"], scope: .todos)
        try EventRules.savedFilter(["status": "active"], scope: .todos)
        let bad: [JSONObject] = [
            ["contexts": .object(["list": .object([:])])],
            ["contexts": .object(["two words": .object([:])])],
            ["contexts": .object(["work": .object(["expression": "(("])])],
            ["contexts": .object(["work": .object([:])]), "active": "home"],
            ["contexts": .string("work")],
            ["expression": "category:running"],
        ]
        for object in bad {
            #expect(throws: EventLineError.self, "\(object)") { try EventRules.savedFilter(object, scope: .todos) }
        }
    }

    @Test("what a new todo takes: tags and one project that must hold, nothing under or or not")
    func determined() throws {
        func taken(_ text: String) throws -> ([String], String?) {
            let result = try FilterParser.parse(text).determined
            return (result.tags, result.project)
        }
        #expect(try taken("project:work tag:urgent +q4") == (["urgent", "q4"], "work"))
        #expect(try taken("project:work or tag:urgent") == ([], nil))
        #expect(try taken("-tag:someday status:pending") == ([], nil))
        #expect(try taken("project:home project:home.garden") == ([], "home.garden"))
        #expect(try taken("project:home project:work") == ([], nil))
        #expect(try taken("(tag:a or tag:b) tag:c") == (["c"], nil))
    }

    @Test("a view's options as one expression select what the options select")
    func optionsAsExpression() throws {
        var random = SeededRandom(seed: 25)
        let tags = ["a", "b", "c"]
        for round in 0..<200 {
            var query = TodoQuery()
            query.status = TodoStatus.allCases.randomElement(using: &random)!
            query.tags = tags.filter { _ in Int.random(in: 0..<4, using: &random) == 0 }
            query.priority = Bool.random(using: &random) ? Priority.allCases.randomElement(using: &random) : nil
            if Bool.random(using: &random) { query.dueBefore = ["today", "+2d", "2026-11-20"].randomElement(using: &random) }
            if Bool.random(using: &random) { query.dueAfter = ["-2d", "today"].randomElement(using: &random) }
            if Int.random(in: 0..<4, using: &random) == 0 { query.search = ["Mi", "oat m", "b"].randomElement(using: &random) }
            let program = try query.filterExpression.map { try FilterProgram($0, now: now, zone: utc) }
            for number in 0..<20 {
                let todo = Todo(
                    id: "t\(number)", number: number, title: ["Buy oat milk", "Mow", "Call Bob"].randomElement(using: &random)!,
                    tags: tags.filter { _ in Bool.random(using: &random) },
                    priority: Bool.random(using: &random) ? Priority.allCases.randomElement(using: &random) : nil,
                    due: Bool.random(using: &random) ? .date(LocalDate.containing(now, in: utc).adding(days: Int.random(in: -4...4, using: &random))) : nil,
                    completed: Bool.random(using: &random), createdAt: now, updatedAt: now
                )
                // The options as `TodoProjection` applies them, written out here.
                let today = LocalDate.containing(now, in: utc)
                func bound(_ raw: String) -> LocalDate {
                    switch raw {
                    case "today": today
                    case "+2d": today.adding(days: 2)
                    case "-2d": today.adding(days: -2)
                    default: LocalDate(year: 2026, month: 11, day: 20)!
                    }
                }
                var expected = true
                if query.status == .active, todo.completed { expected = false }
                if query.status == .completed, !todo.completed { expected = false }
                if !query.tags.allSatisfy(todo.tags.contains) { expected = false }
                if let priority = query.priority, todo.priority != priority { expected = false }
                if query.dueBefore != nil || query.dueAfter != nil {
                    if case .date(let due)? = todo.due {
                        if let raw = query.dueBefore, !(due < bound(raw)) { expected = false }
                        if let raw = query.dueAfter, !(due > bound(raw)) { expected = false }
                    } else {
                        expected = false
                    }
                }
                if let search = query.search?.lowercased(), !todo.title.lowercased().contains(search), !todo.tags.contains(where: { $0.contains(search) }) {
                    expected = false
                }
                #expect((program?.matches(todo) ?? true) == expected, "round \(round): \(query) on \(todo)")
            }
        }
    }
}

// MARK: - Property: record filters against a reference written apart from the evaluator

/// The test's own tree of record terms, rendered to text in several spellings and evaluated directly.
private indirect enum RecordReference {
    case category(String), source(RecordSource), dateOn(Int), dateBefore(Int), dateAfter(Int), deleted, word(String)
    case not(RecordReference), and([RecordReference]), or([RecordReference])

    static let categories = ["running", "cycling", "gym"]
    static let words = ["run", "lake", "park", "Ride", "windy", "x"]

    /// Days relative to `now`'s day, written as the dates the parser reads.
    static func dateText(_ offset: Int) -> String {
        LocalDate.containing(now, in: utc).adding(days: offset).description
    }

    func holds(_ record: Record) -> Bool {
        let day = Int(LocalDate.containing(record.date, in: utc).dayNumber - LocalDate.containing(now, in: utc).dayNumber)
        switch self {
        case .category(let category): return record.category == category
        case .source(let source): return record.source == source
        case .dateOn(let offset): return day == offset
        case .dateBefore(let offset): return day < offset
        case .dateAfter(let offset): return day > offset
        case .deleted: return record.deleted
        case .word(let word):
            let needle = word.lowercased()
            return [record.name, record.category, record.place ?? "", record.note ?? ""].contains { $0.lowercased().contains(needle) }
        case .not(let inner): return !inner.holds(record)
        case .and(let operands): return operands.allSatisfy { $0.holds(record) }
        case .or(let operands): return operands.contains { $0.holds(record) }
        }
    }

    func text(_ random: inout SeededRandom) -> String {
        func pick(_ choices: [String]) -> String { choices[Int.random(in: 0..<choices.count, using: &random)] }
        switch self {
        case .category(let category): return pick(["category:", "CATEGORY:"]) + category
        case .source(let source): return "source:" + source.rawValue
        case .dateOn(let offset): return "date:" + Self.dateText(offset)
        case .dateBefore(let offset): return "date.before:" + Self.dateText(offset)
        case .dateAfter(let offset): return "date.after:" + Self.dateText(offset)
        case .deleted: return "status:deleted"
        case .word(let word): return Bool.random(using: &random) ? word : "\"\(word)\""
        case .not(let inner):
            let body = inner.text(&random)
            if case .and = inner { return "not (\(body))" }
            if case .or = inner { return "not (\(body))" }
            return pick(["not ", "-"]) + body
        case .and(let operands):
            return operands.map { operand in
                let body = operand.text(&random)
                if case .or = operand { return "(\(body))" }
                return body
            }.joined(separator: pick([" ", " and "]))
        case .or(let operands): return operands.map { "(\($0.text(&random)))" }.joined(separator: " or ")
        }
    }

    static func generate(depth: Int, _ random: inout SeededRandom) -> RecordReference {
        let leaf = depth >= 3 || Int.random(in: 0..<3, using: &random) > 0
        if leaf {
            switch Int.random(in: 0..<7, using: &random) {
            case 0: return .category(categories.randomElement(using: &random)!)
            case 1: return .source(RecordSource.allCases.randomElement(using: &random)!)
            case 2: return .dateOn(Int.random(in: -4...1, using: &random))
            case 3: return .dateBefore(Int.random(in: -4...1, using: &random))
            case 4: return .dateAfter(Int.random(in: -4...1, using: &random))
            case 5: return .deleted
            default: return .word(words.randomElement(using: &random)!)
            }
        }
        let count = Int.random(in: 2...3, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return .not(generate(depth: depth + 1, &random))
        case 1: return .and((0..<count).map { _ in generate(depth: depth + 1, &random) })
        default: return .or((0..<count).map { _ in generate(depth: depth + 1, &random) })
        }
    }
}

@Suite struct RecordFilterPropertyTests {
    @Test("the record evaluator agrees with the reference on generated records and expressions; the canonical form reads back")
    func agrees() throws {
        var random = SeededRandom(seed: 0x2525)
        let names = ["Morning run", "Ride to the lake", "Gym", "Park run", "Long ride"]
        let records = (1...40).map { number in
            Record(
                id: "r\(number)", number: number, name: names.randomElement(using: &random)!,
                category: RecordReference.categories.randomElement(using: &random)!, durationSeconds: 600,
                place: Bool.random(using: &random) ? "Stromovka park" : nil,
                date: now + Int64.random(in: -5 * 86_400...86_400, using: &random) * 1000,
                note: Bool.random(using: &random) ? "Windy, X marks" : nil,
                source: RecordSource.allCases.randomElement(using: &random)!, createdAt: now, updatedAt: now,
                deleted: Int.random(in: 0..<5, using: &random) == 0
            )
        }
        for round in 0..<AttackScale.count(short: 300, full: 3000) {
            let reference = RecordReference.generate(depth: 0, &random)
            let text = reference.text(&random)
            let expression = try FilterParser.parse(text, subject: .records, dates: (now, utc))
            #expect(try FilterParser.parse(expression.canonical, subject: .records) == expression, "round \(round): \(text)")
            let program = try FilterProgram(expression, now: now, zone: utc)
            for record in records {
                #expect(program.matches(record) == reference.holds(record), "round \(round): \(text) on \(record.name) \(record.category)")
            }
        }
    }
}
