import TallyEssentials
import Testing
import TallyTestSupport
@testable import TallyDomain

/// 2026-11-21T14:30:00Z, a Saturday.
private let now: Int64 = 1_795_271_400_000
private let utc = Zone.utc

private func parse(_ text: String, _ syntax: FilterSyntax = .english) throws(FilterError) -> FilterExpression {
    try FilterParser.parse(text, syntax: syntax, dates: (now, utc))
}

private func failure(_ text: String, _ syntax: FilterSyntax = .english) -> FilterError? {
    do {
        _ = try parse(text, syntax)
        return nil
    } catch {
        return error
    }
}

@Suite struct FilterParserTests {
    @Test func precedenceAndFlattening() throws {
        #expect(try parse("a b or c") == .or([.and([.term(.word("a")), .term(.word("b"))]), .term(.word("c"))]))
        #expect(try parse("a (b or c)") == .and([.term(.word("a")), .or([.term(.word("b")), .term(.word("c"))])]))
        #expect(try parse("(a b) c and d") == .and([.term(.word("a")), .term(.word("b")), .term(.word("c")), .term(.word("d"))]))
        #expect(try parse("a or (b or c)") == .or([.term(.word("a")), .term(.word("b")), .term(.word("c"))]))
        #expect(try parse("-a not b") == .and([.not(.term(.word("a"))), .not(.term(.word("b")))]))
        #expect(try parse("not (a or b)") == .not(.or([.term(.word("a")), .term(.word("b"))])))
        #expect(try parse("NOT -a") == .not(.not(.term(.word("a")))))
    }

    @Test func fieldTerms() throws {
        #expect(try parse("tag:Čtení") == .term(.tag("čtení")))
        #expect(try parse("+shop") == .term(.tag("shop")))
        #expect(try parse("project:Home.Garden") == .term(.project("home.garden")))
        #expect(try parse("priority:H priority:medium priority:none") == .and([.term(.priority(.high)), .term(.priority(.medium)), .term(.priority(nil))]))
        #expect(try parse("status:done status:open") == .and([.term(.status(.completed)), .term(.status(.pending))]))
        #expect(try parse("is:blocked") == .term(.flag(.blocked)))
        #expect(try parse("due:today due.before:fri due.after:\"in 2 weeks\"") == .and([.term(.dueOn("today")), .term(.dueBefore("fri")), .term(.dueAfter("in 2 weeks"))]))
        #expect(try parse("due:none due:any") == .and([.term(.hasDue(false)), .term(.hasDue(true))]))
        #expect(try parse("project:none -Project:ANY") == .and([.term(.hasProject(false)), .not(.term(.hasProject(true)))]))
        #expect(try parse("projekt:žádný projekt:jakýkoli", .czech) == .and([.term(.hasProject(false)), .term(.hasProject(true))]))
        #expect(FilterTerm.hasProject(false).canonical == "project:none" && FilterTerm.hasProject(true).canonical == "project:any")
        #expect(try parse("\"or\" \"two words\" Milk") == .and([.term(.word("or")), .term(.word("two words")), .term(.word("milk"))]))
    }

    @Test func czechWords() throws {
        #expect(try parse("štítek:nákup nebo ne stav:hotové", .czech) == .or([.term(.tag("nákup")), .not(.term(.status(.completed)))]))
        #expect(try parse("priorita:vysoká a je:blokované", .czech) == .and([.term(.priority(.high)), .term(.flag(.blocked))]))
        // In English, Czech keywords are words.
        #expect(try parse("a nebo b") == .and([.term(.word("a")), .term(.word("nebo")), .term(.word("b"))]))
    }

    @Test("every error points at the character that is wrong", arguments: [
        ("", 0, FilterError.Key.empty),
        ("   ", 0, .empty),
        ("prio:H", 0, .unknownField),
        ("tag:shop or (fence", 12, .unclosedParenthesis),
        ("a )", 2, .unopenedParenthesis),
        ("a or", 2, .operatorWithoutRight),
        ("or a", 0, .operatorWithoutLeft),
        ("a and or b", 2, .operatorWithoutRight),
        ("a - b", 2, .negationWithoutTerm),
        ("a not", 2, .negationWithoutTerm),
        ("tag:", 4, .missingValue),
        ("x tag:a/b", 6, .invalidTag),
        ("project:a..b", 8, .invalidProject),
        ("priority:urgent", 9, .invalidPriority),
        ("status:someday", 7, .invalidStatus),
        ("is:lazy", 3, .invalidFlag),
        ("due.before:\"in 2 weks\"", 11, .invalidWhen),
        ("due:@5", 4, .invalidWhen),
        ("a \"open", 2, .unterminatedQuote),
        ("日本 (prio:H", 4, .unknownField),
        ("a \"\"", 2, .emptyPhrase),
        ("a\u{7}b", 1, .controlCharacter),
    ])
    func errors(text: String, offset: Int, key: FilterError.Key) {
        let error = failure(text)
        #expect(error?.key == key, "\(text)")
        #expect(error?.offset == offset, "\(text)")
    }

    @Test func canonicalForm() throws {
        let cases: [(String, String)] = [
            ("TAG:Shop OR (project:home AND -due:none)", "tag:shop or project:home -due:none"),
            ("(x or y) -z", "(x or y) -z"),
            ("not (x or y) z", "not (x or y) z"),
            ("-(-x)", "not -x"),
            ("a", "\"a\""),
            ("\"or\" \"x:y\" \"-z\" \"two words\" \"q\\\"uote\"", "\"or\" \"x:y\" \"-z\" \"two words\" \"q\\\"uote\""),
            ("priority:high status:done", "priority:H status:completed"),
            ("štítek:a nebo b", "tag:a or b"),
        ]
        for (input, canonical) in cases {
            let expression = try parse(input, input.hasPrefix("štítek") ? .czech : .english)
            #expect(expression.canonical == canonical)
            #expect(try parse(expression.canonical) == expression)
        }
    }

    @Test func storedInTheSavedView() throws {
        var query = TodoQuery()
        query.expression = try parse("tag:shop or is:overdue")
        let object = query.json
        #expect(object["expression"]?.stringValue == "tag:shop or is:overdue")
        #expect(TodoQuery(json: object) == query)
        #expect(throws: EventLineError.self) {
            try EventRules.checkPayload(.filterSaved(scope: .todos, filter: ["expression": .string("tag:shop or (")]))
        }
        #expect(throws: EventLineError.self) {
            try EventRules.checkPayload(.filterSaved(scope: .todos, filter: ["expression": .int(3)]))
        }
        try EventRules.checkPayload(.filterSaved(scope: .todos, filter: object))
    }

    @Test func projectsNestByWholeNames() {
        #expect(ProjectPath.isWithin("home.garden", "home"))
        #expect(ProjectPath.isWithin("home", "home"))
        #expect(!ProjectPath.isWithin("homework", "home"))
        #expect(!ProjectPath.isWithin("home", "home.garden"))
        #expect(ProjectPath.normalized("Domov.Zahrada") == "domov.zahrada")
        #expect(ProjectPath.normalized("a..b") == nil)
        #expect(ProjectPath.normalized(".a") == nil)
        #expect(ProjectPath.normalized(Array(repeating: "a", count: 9).joined(separator: ".")) == nil)
    }
}

// MARK: - Property: the evaluator against a reference written apart from it

/// A generated todo with the facts the reference needs.
private struct Case {
    var todo: Todo
    var project: String?
    var blocked: Bool
}

/// The test's own expression tree, rendered to text in many spellings and evaluated directly.
private indirect enum Reference {
    case tag(String), project(String), dueBefore(LocalDate), dueAfter(LocalDate), dueOn(LocalDate), dueToday
    case hasDue(Bool), hasProject(Bool), priority(Priority?), status(String), flag(String), word(String)
    case not(Reference), and([Reference]), or([Reference])

    func holds(_ item: Case) -> Bool {
        let todo = item.todo
        let pending = !todo.completed && !todo.deleted
        let today = LocalDate.containing(now, in: utc)
        let waiting: Bool = switch todo.wait {
        case .date(let day)?: pending && day > today
        case .instant(let instant)?: pending && instant > now
        case nil: false
        }
        func dueIn(_ from: LocalDate?, _ through: LocalDate?) -> Bool {
            switch todo.due {
            case nil: return false
            case .date(let day)?:
                return (from.map { day >= $0 } ?? true) && (through.map { day <= $0 } ?? true)
            case .instant(let instant)?:
                let day = LocalDate.containing(instant, in: utc)
                return (from.map { day >= $0 } ?? true) && (through.map { day <= $0 } ?? true)
            }
        }
        switch self {
        case .tag(let tag): return todo.tags.contains(tag)
        case .project(let project):
            guard let own = item.project else { return false }
            return own == project || own.hasPrefix(project + ".")
        case .dueBefore(let day): return dueIn(nil, day.adding(days: -1))
        case .dueAfter(let day): return dueIn(day.adding(days: 1), nil)
        case .dueOn(let day): return dueIn(day, day)
        case .dueToday: return dueIn(today, today)
        case .hasDue(let has): return (todo.due != nil) == has
        case .hasProject(let has): return (item.project != nil) == has
        case .priority(let priority): return todo.priority == priority
        case .status(let status):
            switch status {
            case "pending": return pending
            case "completed": return todo.completed && !todo.deleted
            case "deleted": return todo.deleted
            default: return waiting
            }
        case .flag(let flag):
            switch flag {
            case "blocked": return pending && item.blocked
            case "ready": return pending && !item.blocked && !waiting
            case "waiting": return waiting
            case "recurring": return todo.series != nil
            default:
                switch todo.due {
                case .date(let day)?: return pending && day < today
                case .instant(let instant)?: return pending && instant < now
                case nil: return false
                }
            }
        case .word(let word):
            let needle = word.lowercased()
            return todo.title.lowercased().contains(needle) || (todo.note?.lowercased().contains(needle) ?? false)
                || todo.tags.contains { $0.contains(needle) } || (item.project?.contains(needle) ?? false)
        case .not(let inner): return !inner.holds(item)
        case .and(let operands): return operands.allSatisfy { $0.holds(item) }
        case .or(let operands): return operands.contains { $0.holds(item) }
        }
    }

    /// Text the parser reads as this expression, spelled one of many ways.
    func text(_ random: inout SeededRandom) -> String {
        func pick(_ choices: [String]) -> String { choices[Int.random(in: 0..<choices.count, using: &random)] }
        switch self {
        case .tag(let tag): return pick(["tag:\(tag)", "+\(tag)", "TAG:\(tag.uppercased())"])
        case .project(let project): return pick(["project:\(project)", "Project:\(project.uppercased())"])
        case .dueBefore(let day): return "due.before:\(day)"
        case .dueAfter(let day): return "due.after:\(day)"
        case .dueOn(let day): return pick(["due:\(day)", "due:\"\(day)\""])
        case .dueToday: return pick(["due:today", "due:TODAY"])
        case .hasDue(let has): return has ? "due:any" : "due:none"
        case .hasProject(let has): return pick(has ? ["project:any", "PROJECT:Any"] : ["project:none", "project:NONE"])
        case .priority(let priority):
            guard let priority else { return "priority:none" }
            return pick(["priority:\(priority.rawValue)", "priority:\(priority.rawValue.prefix(1).uppercased())"])
        case .status(let status):
            let aliases = ["pending": ["pending", "active", "open"], "completed": ["completed", "done"]]
            return "status:" + pick(aliases[status] ?? [status])
        case .flag(let flag): return "is:\(flag)"
        case .word(let word): return Bool.random(using: &random) && !word.contains(" ") ? word : "\"\(word)\""
        case .not(let inner):
            let body = inner.text(&random)
            if case .and = inner { return pick(["not ", "-", "NOT "]) + "(\(body))" }
            if case .or = inner { return pick(["not ", "-"]) + "(\(body))" }
            return pick(["not ", "-", "not (", "-("]).appending(body, closing: true)
        case .and(let operands):
            let parts = operands.map { operand -> String in
                let body = operand.text(&random)
                if case .or = operand { return "(\(body))" }
                return Int.random(in: 0..<6, using: &random) == 0 ? "( \(body) )" : body
            }
            var result = parts[0]
            for part in parts.dropFirst() { result += pick([" ", "  ", " and ", " AND "]) + part }
            return result
        case .or(let operands):
            let parts = operands.map { operand -> String in
                let body = operand.text(&random)
                return Int.random(in: 0..<6, using: &random) == 0 ? "(\(body))" : body
            }
            return parts.joined(separator: pick([" or ", " OR ", "  or  "]))
        }
    }
}

private extension String {
    /// Closes the parenthesis an opening `not (` or `-(` left open.
    func appending(_ body: String, closing: Bool) -> String {
        hasSuffix("(") ? self + body + ")" : self + body
    }
}

private enum Generate {
    static let words = ["milk", "Čaj", "fence", "garden", "rent", "ol", "k"]
    static let tags = ["shop", "home", "čtení", "work"]
    static let projects = ["home", "home.garden", "home.garden.beds", "work", "homework", "práce.úřad"]
    static let today = LocalDate.containing(now, in: utc)

    static func day(_ random: inout SeededRandom) -> LocalDate {
        today.adding(days: Int.random(in: -3...3, using: &random))
    }

    static func todo(_ number: Int, _ random: inout SeededRandom) -> Case {
        func maybe<T>(_ value: T) -> T? { Bool.random(using: &random) ? value : nil }
        let title = (0..<Int.random(in: 1...3, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
        let due: Due? = switch Int.random(in: 0..<3, using: &random) {
        case 0: nil
        case 1: .date(day(&random))
        default: .instant(now + Int64.random(in: -3...3, using: &random) * 43_200_000 + Int64.random(in: -1...1, using: &random))
        }
        let wait: Due? = switch Int.random(in: 0..<4, using: &random) {
        case 0: .date(day(&random))
        case 1: .instant(now + Int64.random(in: -2...2, using: &random) * 3_600_000)
        default: nil
        }
        let completed = Int.random(in: 0..<3, using: &random) == 0
        let todo = Todo(
            id: "t\(number)", number: number, title: title, tags: tags.filter { _ in Int.random(in: 0..<3, using: &random) == 0 },
            priority: maybe(Priority.allCases.randomElement(using: &random)!), due: due,
            note: maybe(words.randomElement(using: &random)!), wait: wait, series: maybe("s"), completed: completed,
            createdAt: now, updatedAt: now, deleted: Int.random(in: 0..<6, using: &random) == 0
        )
        var withProject = todo
        withProject.project = maybe(projects.randomElement(using: &random)!)
        return Case(todo: withProject, project: withProject.project, blocked: Bool.random(using: &random))
    }

    static func expression(depth: Int, _ random: inout SeededRandom) -> Reference {
        let roll = Int.random(in: 0..<(depth > 3 ? 11 : 14), using: &random)
        switch roll {
        case 0: return .tag(tags.randomElement(using: &random)!)
        case 1: return .project(["home", "home.garden", "work", "práce"].randomElement(using: &random)!)
        case 2: return .dueBefore(day(&random))
        case 3: return .dueAfter(day(&random))
        case 4: return Bool.random(using: &random) ? .dueOn(day(&random)) : .dueToday
        case 5: return Bool.random(using: &random) ? .hasDue(Bool.random(using: &random)) : .hasProject(Bool.random(using: &random))
        case 6: return .priority([nil, .low, .medium, .high].randomElement(using: &random)!)
        case 7: return .status(["pending", "completed", "deleted", "waiting"].randomElement(using: &random)!)
        case 8: return .flag(["blocked", "ready", "waiting", "recurring", "overdue"].randomElement(using: &random)!)
        case 9, 10: return .word(["milk", "čaj", "ČAJ", "en", "garden", "ol k", "sho"].randomElement(using: &random)!)
        case 11: return .not(expression(depth: depth + 1, &random))
        case 12: return .and((0..<Int.random(in: 2...3, using: &random)).map { _ in expression(depth: depth + 1, &random) })
        default: return .or((0..<Int.random(in: 2...3, using: &random)).map { _ in expression(depth: depth + 1, &random) })
        }
    }
}

@Suite struct FilterPropertyTests {
    @Test("the evaluator agrees with the reference on generated todos and expressions")
    func agreesWithReference() throws {
        var random = SeededRandom(seed: 2025)
        let todos = (1...120).map { Generate.todo($0, &random) }
        var matchedSome = 0
        for round in 0..<AttackScale.count(short: 600, full: 20_000) {
            let reference = Generate.expression(depth: 0, &random)
            let text = reference.text(&random)
            let expression: FilterExpression
            do {
                expression = try parse(text)
            } catch {
                Issue.record("round \(round): '\(text)' did not parse: \(error.english) at \(error.offset)")
                continue
            }
            #expect(try parse(expression.canonical) == expression, "round \(round): canonical form of '\(text)'")
            let program = try FilterProgram(expression, now: now, zone: utc)
            var matches = 0
            for item in todos {
                let expected = reference.holds(item)
                let actual = program.matches(item.todo, facts: FilterFacts(blocked: item.blocked))
                if expected != actual {
                    Issue.record("round \(round): '\(text)' on \(item): expected \(expected)")
                    break
                }
                if actual { matches += 1 }
            }
            if matches > 0 && matches < todos.count { matchedSome += 1 }
        }
        // The generated expressions tell todos apart, so agreeing means something.
        #expect(matchedSome > AttackScale.count(short: 600, full: 20_000) / 3)
    }
}
