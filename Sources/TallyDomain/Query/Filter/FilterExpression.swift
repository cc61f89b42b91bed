import TallyEssentials
/// A filter expression over todos: field terms and words joined by `and`, `or` and `not`.
///
/// `and` and `or` hold two or more operands each and are never nested in one of their own kind, so
/// one expression has one shape and `parse(canonical)` gives it back (`FilterParser`).
public indirect enum FilterExpression: Sendable, Equatable {
    case term(FilterTerm)
    case not(FilterExpression)
    case and([FilterExpression])
    case or([FilterExpression])
}

/// One condition on a todo.
public enum FilterTerm: Sendable, Equatable {
    /// `tag:shop` (`+shop`): the todo has the tag (normalised as tags are).
    case tag(String)
    /// `project:home`: the todo's project is `home` or below it (`home.garden`).
    case project(String)
    /// `project:none` / `project:any`: without or with a project.
    case hasProject(Bool)
    /// `due:WHEN`: due within WHEN (a day: that whole day); kept as written, so it stays relative.
    case dueOn(String)
    /// `due.before:WHEN`: due before WHEN starts.
    case dueBefore(String)
    /// `due.after:WHEN`: due after WHEN ends (a day: after that whole day).
    case dueAfter(String)
    /// `due:none` / `due:any`.
    case hasDue(Bool)
    /// `priority:H`; nil is `priority:none`.
    case priority(Priority?)
    /// `status:pending` and so on.
    case status(FilterStatus)
    /// `is:blocked` and so on.
    case flag(FilterFlag)
    /// A word (or a quoted phrase) the title, note, tags, project or annotations contain, ignoring case
    /// (a record's name, category, place or note).
    case word(String)
    // Record terms (`FilterSubject.records`).
    /// `category:running`: the record's category.
    case category(String)
    /// `source:import`: where the record came from.
    case source(RecordSource)
    /// `date:WHEN`: the record happened within WHEN (a day: that whole day).
    case dateOn(String)
    /// `date.before:WHEN`: happened before WHEN starts.
    case dateBefore(String)
    /// `date.after:WHEN`: happened after WHEN ends (a day: after that whole day).
    case dateAfter(String)
}

/// What an expression filters: the fields it may name differ, the rest of the language is one.
public enum FilterSubject: String, Sendable, CaseIterable {
    case todos, records

    /// The English field names, as errors list them.
    public var fields: [String] {
        switch self {
        case .todos: ["tag", "project", "due", "due.before", "due.after", "priority", "status", "is"]
        case .records: ["category", "source", "date", "date.before", "date.after", "status"]
        }
    }

    /// The values `status:` takes.
    public var statuses: [FilterStatus] {
        switch self {
        case .todos: FilterStatus.allCases
        case .records: [.deleted]
        }
    }
}

/// The values of `status:`.
public enum FilterStatus: String, Sendable, CaseIterable {
    /// Neither completed nor deleted.
    case pending
    case completed
    case deleted
    /// Pending and waiting (`--wait`) until a later day or time.
    case waiting
}

/// The values of `is:`.
public enum FilterFlag: String, Sendable, CaseIterable {
    /// Pending and waits for another pending todo (`--after`).
    case blocked
    /// Pending, not waiting and not blocked.
    case ready
    /// Pending and waiting until a later day or time.
    case waiting
    /// An instance of a recurring series.
    case recurring
    /// Pending with a due date or time that has passed.
    case overdue
}

extension FilterExpression {
    /// The expression in the stored English form, with no more parentheses and quotes than it needs.
    public var canonical: String {
        switch self {
        case .term(let term): term.canonical
        case .not(let inner):
            if case .term = inner { "-" + inner.canonical } else { "not " + inner.wrapped(inside: .not) }
        case .and(let operands): operands.map { $0.wrapped(inside: .and) }.joined(separator: " ")
        case .or(let operands): operands.map { $0.wrapped(inside: .or) }.joined(separator: " or ")
        }
    }

    private enum Parent { case not, and, or }

    private func wrapped(inside parent: Parent) -> String {
        let needs = switch (self, parent) {
        case (.term, _), (.not, _): false
        case (.and, .or): false
        default: true
        }
        return needs ? "(" + canonical + ")" : canonical
    }

    /// Every term, in order.
    public var terms: [FilterTerm] {
        switch self {
        case .term(let term): [term]
        case .not(let inner): inner.terms
        case .and(let operands), .or(let operands): operands.flatMap(\.terms)
        }
    }

    /// True when some term can only match deleted todos: the view then considers them.
    public var namesDeleted: Bool { terms.contains(.status(.deleted)) }

    /// True when some term asks about waiting: the view then considers waiting todos instead of hiding them.
    public var namesWaiting: Bool { terms.contains { $0 == .status(.waiting) || $0 == .flag(.waiting) } }
}

extension FilterTerm {
    /// The term as the stored English form writes it.
    public var canonical: String {
        switch self {
        case .tag(let tag): "tag:" + FilterText.quotedIfNeeded(tag)
        case .project(let project): "project:" + FilterText.quotedIfNeeded(project)
        case .hasProject(let has): has ? "project:any" : "project:none"
        case .dueOn(let when): "due:" + FilterText.quotedIfNeeded(when)
        case .dueBefore(let when): "due.before:" + FilterText.quotedIfNeeded(when)
        case .dueAfter(let when): "due.after:" + FilterText.quotedIfNeeded(when)
        case .hasDue(let has): has ? "due:any" : "due:none"
        case .priority(let priority): "priority:" + (priority.map { String($0.rawValue.prefix(1)).uppercased() } ?? "none")
        case .status(let status): "status:" + status.rawValue
        case .flag(let flag): "is:" + flag.rawValue
        case .word(let word): FilterText.wordText(word)
        case .category(let category): "category:" + category
        case .source(let source): "source:" + source.rawValue
        case .dateOn(let when): "date:" + FilterText.quotedIfNeeded(when)
        case .dateBefore(let when): "date.before:" + FilterText.quotedIfNeeded(when)
        case .dateAfter(let when): "date.after:" + FilterText.quotedIfNeeded(when)
        }
    }
}

/// How values and words are written so that they read back unchanged.
enum FilterText {
    /// Every keyword of every language: a word spelled like one is quoted.
    static let keywords: Set<String> = ["and", "or", "not", "a", "nebo", "ne"]

    static func isPlain(_ text: String) -> Bool {
        !text.isEmpty && !text.unicodeScalars.contains { $0 == " " || $0 == "\"" || $0 == "(" || $0 == ")" || $0 == "\\" || $0.properties.isWhitespace }
    }

    static func quotedIfNeeded(_ text: String) -> String {
        isPlain(text) ? text : quoted(text)
    }

    static func quoted(_ text: String) -> String {
        // On scalars, as the lexer reads: a quote or backslash with a combining mark after it is still one.
        var result = String.UnicodeScalarView()
        result.append("\"")
        for scalar in text.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { result.append("\\") }
            result.append(scalar)
        }
        result.append("\"")
        return String(result)
    }

    /// A word stays bare unless it could read as something else: a keyword, a field term, a negation or a tag.
    static func wordText(_ word: String) -> String {
        let first = word.unicodeScalars.first
        let bare = isPlain(word) && !keywords.contains(word.lowercased()) && !word.unicodeScalars.contains(":")
            && first != "-" && first != "+"
        return bare ? word : quoted(word)
    }
}
