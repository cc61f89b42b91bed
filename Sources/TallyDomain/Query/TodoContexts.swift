import TallyEssentials

/// The named contexts of the todos and the one that is active, as the todos' `filter.saved` object
/// holds them: `{"contexts": {"work": VIEW, ...}, "active": "work"}`, each VIEW a `TodoQuery` object.
///
/// A context's filter (its options and expression as one `FilterExpression`) narrows every todo
/// list and report while it is active; its sort, limit and the rest shape a bare `tally list`. The
/// saved view of 0.9 (a `TodoQuery` object at the top) is read as the context `default`, active
/// (`upcast`), so a store written before contexts shows the same list.
public struct TodoContexts: Sendable, Equatable {
    /// The context `filter set` saves into, and the name a 0.9 saved view takes.
    public static let defaultName = "default"
    /// Words `tally context` reads as actions: no context may be named so.
    public static let reservedNames: Set<String> = ["define", "list", "delete", "none", "show", "ls", "rm"]
    public static let maxContexts = 50

    public var views: [String: TodoQuery]
    public var active: String?

    public init(views: [String: TodoQuery] = [:], active: String? = nil) {
        self.views = views
        self.active = active
    }

    /// Reads the stored object (nil: no contexts), upcasting a 0.9 saved view.
    public init(json object: JSONObject?) {
        self.init()
        guard let object = object.map(Self.upcast) else { return }
        let contexts = object["contexts"]?.objectValue ?? JSONObject()
        for name in contexts.keys {
            if let view = contexts[name]?.objectValue { views[name] = TodoQuery(json: view) }
        }
        if let name = object["active"]?.stringValue, views[name] != nil { active = name }
    }

    /// The stored object; nil when there are no contexts (the scope is then reset).
    public var json: JSONObject? {
        guard !views.isEmpty else { return nil }
        var contexts = JSONObject()
        for (name, view) in views { contexts[name] = .object(view.json) }
        var object: JSONObject = ["contexts": .object(contexts)]
        if let active { object["active"] = .string(active) }
        return object
    }

    /// A stored object in the current shape: a 0.9 saved view (view options at the top, no
    /// `contexts`) becomes the context `default`, active.
    public static func upcast(_ object: JSONObject) -> JSONObject {
        if object["contexts"] != nil { return object }
        return ["contexts": .object([defaultName: .object(object)]), "active": .string(defaultName)]
    }

    /// The context names in order.
    public var names: [String] { views.keys.sorted() }

    /// The active context's view.
    public var activeView: TodoQuery? { active.flatMap { views[$0] } }

    /// The active context's filter, or nil.
    public var activeFilter: FilterExpression? { activeView?.filterExpression }

    /// The filter that narrows every list and report and gives new todos their tags and project:
    /// the active context's, unless that is `default`, the saved view, which shapes only a bare
    /// `list` as it always has (its options are overridden by any given on the command line).
    public var narrowing: FilterExpression? { active == Self.defaultName ? nil : activeFilter }

    /// A context name: like a tag (letters or digits of any script, `_`, `-`), not an action word.
    public static func validName(_ raw: String) -> String? {
        guard let name = try? Validation.tag(raw), !reservedNames.contains(name) else { return nil }
        return name
    }
}

extension TodoQuery {
    /// `--project P`: a todo in P or below it; `--project none`: a todo without a project.
    public func projectMatches(_ project: String?) -> Bool {
        guard let wanted = self.project else { return true }
        if Decider.isNone(wanted) { return project == nil }
        return project.map { ProjectPath.isWithin($0, wanted) } ?? false
    }

    /// The view's filter options and expression as one expression; nil when the view filters nothing.
    ///
    /// `--status active` is `status:pending`, `--status completed` is `status:completed`, each
    /// `--tag` a `tag:` term, `--search TEXT` the phrase (which also finds it in the project). Sort,
    /// limit, `--deleted` and `--waiting` are not filters and stay with the view.
    public var filterExpression: FilterExpression? {
        var terms: [FilterExpression] = []
        switch status {
        case .active: terms.append(.term(.status(.pending)))
        case .completed: terms.append(.term(.status(.completed)))
        case .all: break
        }
        terms += tags.map { .term(.tag($0)) }
        if let priority { terms.append(.term(.priority(priority))) }
        if let dueBefore { terms.append(.term(.dueBefore(dueBefore))) }
        if let dueAfter { terms.append(.term(.dueAfter(dueAfter))) }
        if let search { terms.append(.term(.word(TextForm.normalized(search.lowercased())))) }
        if let project { terms.append(.term(Decider.isNone(project) ? .hasProject(false) : .project(project))) }
        if let expression { terms.append(expression) }
        return FilterExpression.all(terms)
    }
}

extension FilterExpression {
    /// The operands joined by `and` (flattened); nil for none, the one for one.
    public static func all(_ operands: [FilterExpression]) -> FilterExpression? {
        let flat = operands.flatMap { operand -> [FilterExpression] in
            if case .and(let inner) = operand { inner } else { [operand] }
        }
        switch flat.count {
        case 0: return nil
        case 1: return flat[0]
        default: return .and(flat)
        }
    }

    /// What a new todo takes from the expression: the tags of the `tag:` terms and the project of
    /// a single `project:` term that must hold for the expression to match (terms at the top,
    /// side by side, not under `or` or `not`). `project:work or tag:urgent` determines nothing.
    public var determined: (tags: [String], project: String?) {
        let operands: [FilterExpression] = if case .and(let inner) = self { inner } else { [self] }
        var tags: [String] = []
        var projects: [String] = []
        for operand in operands {
            guard case .term(let term) = operand else { continue }
            switch term {
            case .tag(let tag): if !tags.contains(tag) { tags.append(tag) }
            case .project(let project): if !projects.contains(project) { projects.append(project) }
            default: break
            }
        }
        // Two projects side by side: the deeper one, when it lies within the other, else none.
        let project: String? = switch projects.count {
        case 0: nil
        case 1: projects[0]
        default: projects.first { candidate in projects.allSatisfy { ProjectPath.isWithin(candidate, $0) } }
        }
        return (tags, project)
    }
}
