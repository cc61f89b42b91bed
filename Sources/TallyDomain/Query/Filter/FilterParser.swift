import TallyEssentials
/// The words of the filter language in one language: keywords, field names and values.
///
/// English is always understood; Czech adds its own words (`nebo`, `ne`, `a`, `štítek:`, ...).
/// Whatever was typed, an expression is stored in its canonical English form.
public struct FilterSyntax: Sendable {
    var and: Set<String>
    var or: Set<String>
    var not: Set<String>
    /// Field names of the language, to the English ones.
    var fields: [String: String]
    /// Values of `status:`, `is:` and `priority:` in the language, to the English ones.
    var values: [String: String]

    public static let english = FilterSyntax(and: ["and"], or: ["or"], not: ["not"], fields: [:], values: [:])

    public static let czech = FilterSyntax(
        and: ["and", "a"], or: ["or", "nebo"], not: ["not", "ne"],
        fields: [
            "štítek": "tag", "projekt": "project", "termín": "due", "termín.před": "due.before", "termín.po": "due.after",
            "priorita": "priority", "stav": "status", "je": "is",
            "kategorie": "category", "zdroj": "source", "datum": "date", "datum.před": "date.before", "datum.po": "date.after",
        ],
        values: [
            "čeká": "waiting", "aktivní": "pending", "hotové": "completed", "hotový": "completed", "smazané": "deleted",
            "blokované": "blocked", "blokovaný": "blocked", "připravené": "ready", "připravený": "ready",
            "opakované": "recurring", "po-termínu": "overdue",
            "vysoká": "high", "v": "high", "střední": "medium", "s": "medium", "nízká": "low", "n": "low", "žádná": "none",
            "žádný": "none", "jakýkoli": "any", "místní": "local", "místní-záznam": "local", "importovaný": "import",
        ]
    )
}

/// Reads a filter expression (`tag:shop or (project:home -due:none)`).
///
/// ```
/// expression := conjunction ( 'or' conjunction )*
/// conjunction := unary ( ['and'] unary )*          -- two terms side by side mean 'and'
/// unary      := ( 'not' | '-' ) unary | '(' expression ')' | term
/// term       := FIELD ':' VALUE | '+' TAG | WORD | '"' PHRASE '"'
/// ```
/// Every error points at a character. Nesting (parentheses and negations) is limited to
/// `maxDepth`, the length to `maxLength` characters and the terms to `maxTerms`, so no input can
/// run the parser or the evaluator out of stack or time.
public enum FilterParser {
    public static let maxDepth = 32
    public static let maxLength = 1000
    public static let maxTerms = 100

    /// The English field names of todos, as errors list them.
    public static let fields = FilterSubject.todos.fields

    /// Parses `text` as a filter of `subject`. With `dates`, every WHEN is read against that clock
    /// and zone so a bad date points at its character; without, dates are checked when the filter runs.
    public static func parse(
        _ text: String, syntax: FilterSyntax = .english, subject: FilterSubject = .todos, dates: (now: Int64, zone: Zone)? = nil
    ) throws(FilterError) -> FilterExpression {
        let characters = Array(text)
        guard Validation.length(text) <= maxLength else {
            throw FilterError(at: Validation.prefix(text, maxLength: maxLength).count, .tooLong, ["max": String(maxLength)])
        }
        if let index = characters.firstIndex(where: { $0.unicodeScalars.contains(where: Validation.isControl) }) {
            throw FilterError(at: index, .controlCharacter)
        }
        var lexer = FilterLexer(characters)
        let tokens = try lexer.tokens()
        var parser = Parser(tokens: tokens, syntax: syntax, subject: subject, dates: dates, end: characters.count)
        guard !tokens.isEmpty else { throw FilterError(at: 0, .empty) }
        let expression = try parser.expression(depth: 0)
        if parser.index < tokens.count {
            let token = tokens[parser.index]
            if case .close = token.kind { throw FilterError(at: token.offset, .unopenedParenthesis) }
            throw FilterError(at: token.offset, .operatorWithoutLeft, ["word": token.text])
        }
        return expression
    }

    private struct Parser {
        let tokens: [FilterToken]
        let syntax: FilterSyntax
        let subject: FilterSubject
        let dates: (now: Int64, zone: Zone)?
        let end: Int
        var index = 0
        var termCount = 0

        init(tokens: [FilterToken], syntax: FilterSyntax, subject: FilterSubject, dates: (now: Int64, zone: Zone)?, end: Int) {
            self.tokens = tokens
            self.syntax = syntax
            self.subject = subject
            self.dates = dates
            self.end = end
        }

        private var peek: FilterToken? { index < tokens.count ? tokens[index] : nil }

        private func keyword(_ token: FilterToken) -> Keyword? {
            guard case .bare = token.kind else { return nil }
            let word = token.text.lowercased()
            if syntax.or.contains(word) { return .or }
            if syntax.and.contains(word) { return .and }
            if syntax.not.contains(word) { return .not }
            return nil
        }

        mutating func expression(depth: Int) throws(FilterError) -> FilterExpression {
            var operands = [try conjunction(depth: depth)]
            while let token = peek, keyword(token) == .or {
                index += 1
                guard let next = peek, startsUnary(next) else { throw FilterError(at: token.offset, .operatorWithoutRight, ["word": token.text]) }
                operands.append(try conjunction(depth: depth))
            }
            return Self.joined(operands, or: true)
        }

        private mutating func conjunction(depth: Int) throws(FilterError) -> FilterExpression {
            var operands = [try unary(depth: depth)]
            while let token = peek {
                if keyword(token) == .and {
                    index += 1
                    guard let next = peek, startsUnary(next) else { throw FilterError(at: token.offset, .operatorWithoutRight, ["word": token.text]) }
                } else if !startsUnary(token) {
                    break
                }
                operands.append(try unary(depth: depth))
            }
            return Self.joined(operands, or: false)
        }

        private func startsUnary(_ token: FilterToken) -> Bool {
            if case .close = token.kind { return false }
            let word = keyword(token)
            return word == nil || word == .not
        }

        private mutating func unary(depth: Int) throws(FilterError) -> FilterExpression {
            guard let token = peek else {
                let last = tokens.last
                throw FilterError(at: last?.offset ?? end, .operatorWithoutRight, ["word": last?.text ?? ""])
            }
            if case .minus = token.kind {
                return try negation(token, depth: depth)
            }
            switch keyword(token) {
            case .not: return try negation(token, depth: depth)
            case .and, .or: throw FilterError(at: token.offset, .operatorWithoutLeft, ["word": token.text])
            case nil: break
            }
            switch token.kind {
            case .open:
                guard depth < maxDepth else { throw FilterError(at: token.offset, .tooDeep, ["max": String(maxDepth)]) }
                index += 1
                guard let next = peek, startsUnary(next) else {
                    if let next = peek, case .close = next.kind { throw FilterError(at: next.offset, .operatorWithoutRight, ["word": "("]) }
                    if let next = peek { throw FilterError(at: next.offset, .operatorWithoutLeft, ["word": next.text]) }
                    throw FilterError(at: token.offset, .unclosedParenthesis)
                }
                let inner = try expression(depth: depth + 1)
                guard let close = peek, case .close = close.kind else { throw FilterError(at: token.offset, .unclosedParenthesis) }
                index += 1
                return inner
            case .close:
                throw FilterError(at: token.offset, .unopenedParenthesis)
            case .bare, .quoted, .field, .plus, .minus:
                index += 1
                termCount += 1
                guard termCount <= maxTerms else { throw FilterError(at: token.offset, .tooManyTerms, ["max": String(maxTerms)]) }
                return .term(try term(token))
            }
        }

        private mutating func negation(_ token: FilterToken, depth: Int) throws(FilterError) -> FilterExpression {
            guard depth < maxDepth else { throw FilterError(at: token.offset, .tooDeep, ["max": String(maxDepth)]) }
            index += 1
            guard let next = peek, startsUnary(next) else { throw FilterError(at: token.offset, .negationWithoutTerm, ["word": token.text]) }
            return .not(try unary(depth: depth + 1))
        }

        private static func joined(_ operands: [FilterExpression], or: Bool) -> FilterExpression {
            if operands.count == 1 { return operands[0] }
            var flat: [FilterExpression] = []
            for operand in operands {
                switch (operand, or) {
                case (.or(let inner), true), (.and(let inner), false): flat += inner
                default: flat.append(operand)
                }
            }
            return or ? .or(flat) : .and(flat)
        }

        private func term(_ token: FilterToken) throws(FilterError) -> FilterTerm {
            switch token.kind {
            case .quoted:
                guard !token.text.isEmpty else { throw FilterError(at: token.offset, .emptyPhrase) }
                return .word(TextForm.normalized(token.text.lowercased()))
            case .bare:
                return .word(TextForm.normalized(token.text.lowercased()))
            case .plus:
                guard let tag = try? Validation.tag(token.text) else { throw FilterError(at: token.valueOffset, .invalidTag, ["value": token.text]) }
                return .tag(tag)
            case .field(let rawField):
                return try fieldTerm(rawField, token)
            case .open, .close, .minus:
                throw FilterError(at: token.offset, .operatorWithoutLeft, ["word": token.text])
            }
        }

        private func fieldTerm(_ rawField: String, _ token: FilterToken) throws(FilterError) -> FilterTerm {
            let lowered = rawField.lowercased()
            let field = syntax.fields[lowered] ?? lowered
            let fields = subject.fields.joined(separator: ", ")
            guard subject.fields.contains(field) else {
                if FilterSubject.allCases.contains(where: { $0.fields.contains(field) }) {
                    throw FilterError(at: token.offset, subject == .records ? .todoField : .recordField, ["field": rawField, "fields": fields])
                }
                throw FilterError(at: token.offset, .unknownField, ["field": rawField, "fields": fields])
            }
            let raw = token.text
            guard !raw.isEmpty else { throw FilterError(at: token.valueOffset, .missingValue, ["field": rawField]) }
            let value = syntax.values[raw.lowercased()] ?? raw.lowercased()
            let at = token.valueOffset
            switch field {
            case "tag":
                guard let tag = try? Validation.tag(raw) else { throw FilterError(at: at, .invalidTag, ["value": raw]) }
                return .tag(tag)
            case "project":
                // As for due: and priority:, none and any are not names (`--project none` clears one).
                if value == "none" || value == "any" { return .hasProject(value == "any") }
                guard let project = ProjectPath.normalized(raw) else { throw FilterError(at: at, .invalidProject, ["value": raw]) }
                return .project(project)
            case "priority":
                if value == "none" { return .priority(nil) }
                guard let priority = try? Validation.priority(value) else { throw FilterError(at: at, .invalidPriority, ["value": raw]) }
                return .priority(priority)
            case "status":
                let aliases = ["active": "pending", "open": "pending", "done": "completed"]
                guard let status = FilterStatus(rawValue: aliases[value] ?? value), subject.statuses.contains(status) else {
                    throw FilterError(at: at, .invalidStatus, ["value": raw, "values": subject.statuses.map(\.rawValue).joined(separator: ", ")])
                }
                return .status(status)
            case "category":
                guard let category = try? Validation.category(raw) else { throw FilterError(at: at, .invalidCategory, ["value": raw]) }
                return .category(category)
            case "source":
                guard let source = RecordSource(rawValue: value) else {
                    throw FilterError(at: at, .invalidSource, ["value": raw, "values": RecordSource.allCases.map(\.rawValue).joined(separator: ", ")])
                }
                return .source(source)
            case "is":
                guard let flag = FilterFlag(rawValue: value) else {
                    throw FilterError(at: at, .invalidFlag, ["value": raw, "values": FilterFlag.allCases.map(\.rawValue).joined(separator: ", ")])
                }
                return .flag(flag)
            default:
                if field == "due", value == "none" || value == "any" { return .hasDue(value == "any") }
                try checkWhen(raw, at: at)
                return switch field {
                case "due.before": .dueBefore(raw)
                case "due.after": .dueAfter(raw)
                case "date": .dateOn(raw)
                case "date.before": .dateBefore(raw)
                case "date.after": .dateAfter(raw)
                default: .dueOn(raw)
                }
            }
        }

        private func checkWhen(_ raw: String, at offset: Int) throws(FilterError) {
            guard let dates else { return }
            do {
                _ = try FilterProgram.bound(raw, now: dates.now, zone: dates.zone)
            } catch {
                throw FilterError(at: offset, .invalidWhen, ["value": raw], value: error)
            }
        }
    }

    private enum Keyword { case and, or, not }
}

/// One token of an expression, with the character it starts at.
struct FilterToken {
    enum Kind: Equatable {
        case open, close
        /// `-` or `not` before a term.
        case minus
        /// `+tag`.
        case plus
        case bare
        case quoted
        /// `field:value`; the token's text is the value.
        case field(String)
    }

    var kind: Kind
    /// The word, the phrase, the tag or the field's value, unquoted.
    var text: String
    var offset: Int
    /// Where the value starts (for a field, after the colon).
    var valueOffset: Int
}

/// Splits an expression into tokens.
///
/// It reads Unicode scalars, not characters, so a quote or a parenthesis followed by a combining
/// mark is still a quote or a parenthesis; offsets are given in characters.
struct FilterLexer {
    let scalars: [Unicode.Scalar]
    /// For each scalar, the character it belongs to.
    let characterIndex: [Int]
    let characterCount: Int
    var index = 0

    init(_ characters: [Character]) {
        var scalars: [Unicode.Scalar] = []
        var characterIndex: [Int] = []
        for (position, character) in characters.enumerated() {
            for scalar in character.unicodeScalars {
                scalars.append(scalar)
                characterIndex.append(position)
            }
        }
        self.scalars = scalars
        self.characterIndex = characterIndex
        self.characterCount = characters.count
    }

    private func offset(_ scalar: Int) -> Int { scalar < characterIndex.count ? characterIndex[scalar] : characterCount }
    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isWhitespace }
    private static func ends(_ scalar: Unicode.Scalar) -> Bool {
        isSpace(scalar) || scalar == "(" || scalar == ")" || scalar == "\""
    }

    private func text(_ range: Range<Int>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[range])
        return String(view)
    }

    mutating func tokens() throws(FilterError) -> [FilterToken] {
        var result: [FilterToken] = []
        while index < scalars.count {
            let scalar = scalars[index]
            let start = offset(index)
            if Self.isSpace(scalar) {
                index += 1
            } else if scalar == "(" || scalar == ")" {
                result.append(FilterToken(kind: scalar == "(" ? .open : .close, text: String(scalar), offset: start, valueOffset: start))
                index += 1
            } else if scalar == "\"" {
                let phrase = try quoted()
                result.append(FilterToken(kind: .quoted, text: phrase, offset: start, valueOffset: start))
            } else if scalar == "-" {
                index += 1
                guard index < scalars.count, !Self.isSpace(scalars[index]), scalars[index] != ")" else {
                    throw FilterError(at: start, .negationWithoutTerm, ["word": "-"])
                }
                result.append(FilterToken(kind: .minus, text: "-", offset: start, valueOffset: start))
            } else {
                result.append(try bare())
            }
        }
        return result
    }

    /// A quoted phrase from the opening quote; `\"` and `\\` stand for themselves.
    private mutating func quoted() throws(FilterError) -> String {
        let start = index
        index += 1
        var view = String.UnicodeScalarView()
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\", index + 1 < scalars.count {
                view.append(scalars[index + 1])
                index += 2
            } else if scalar == "\"" {
                index += 1
                return String(view)
            } else {
                view.append(scalar)
                index += 1
            }
        }
        throw FilterError(at: offset(start), .unterminatedQuote)
    }

    /// A word, `+tag` or `field:value` (the value may be quoted).
    private mutating func bare() throws(FilterError) -> FilterToken {
        let start = index
        while index < scalars.count, !Self.ends(scalars[index]) { index += 1 }
        let whole = text(start..<index)
        if scalars[start] == "+", !whole.unicodeScalars.contains(":") {
            guard index - start > 1 else { throw FilterError(at: offset(start), .invalidTag, ["value": whole]) }
            return FilterToken(kind: .plus, text: text(start + 1..<index), offset: offset(start), valueOffset: offset(start + 1))
        }
        guard let colon = scalars[start..<index].firstIndex(of: ":") else {
            return FilterToken(kind: .bare, text: whole, offset: offset(start), valueOffset: offset(start))
        }
        let field = text(start..<colon)
        var value = text(colon + 1..<index)
        let valueOffset = offset(colon + 1)
        if value.isEmpty, index < scalars.count, scalars[index] == "\"" {
            value = try quoted()
        }
        return FilterToken(kind: .field(field), text: value, offset: offset(start), valueOffset: valueOffset)
    }
}
