import TallyArguments
import TallyEssentials
import TallyDomain

/// Reads the filter expression typed on a command line and says what is wrong with one.
enum FilterExpressionText {
    /// The words of the language the CLI speaks: Czech adds its own to the English ones.
    static func syntax(_ catalog: Catalog) -> FilterSyntax {
        catalog.language.code == "cs" ? .czech : .english
    }

    /// The positional words joined by spaces, parsed; nil when there are none.
    static func parse(_ words: [String], _ context: CLIContext, subject: FilterSubject = .todos) throws -> FilterExpression? {
        guard !words.isEmpty else { return nil }
        let text = words.joined(separator: " ")
        do {
            return try FilterParser.parse(text, syntax: syntax(context.catalog), subject: subject, dates: (context.now, context.zone))
        } catch {
            throw DomainError.invalid(.filter(error, expression: text))
        }
    }

    /// The error in the catalog's language, naming the character (counted from 1).
    static func message(_ error: FilterError, expression: String, catalog: Catalog) -> String {
        var arguments = error.arguments
        if let value = error.value { arguments["reason"] = ValueReasonMessages.text(value, catalog: catalog) }
        return catalog.text(.errorFilter, [
            "position": String(min(error.offset, expression.count) + 1),
            "problem": catalog.text(id(error.key), arguments),
        ])
    }

    /// The expression and a caret under the character the error points at, for the lines after the message.
    static func pointer(_ error: FilterError, expression: String) -> [String] {
        let characters = Array(expression)
        let offset = min(error.offset, characters.count)
        // The expression holds no control characters unless that is the error: then it is shown escaped.
        guard error.key != .controlCharacter else { return ["  " + TerminalText.escaped(expression)] }
        let column = characters[..<offset].reduce(0) { $0 + TextWidth.width(of: $1) }
        return ["  " + expression, "  " + String(repeating: " ", count: column) + "^"]
    }

    static func id(_ key: FilterError.Key) -> MessageID {
        switch key {
        case .empty: .filterErrorEmpty
        case .tooLong: .filterErrorTooLong
        case .tooDeep: .filterErrorTooDeep
        case .tooManyTerms: .filterErrorTooManyTerms
        case .controlCharacter: .filterErrorControlCharacter
        case .unterminatedQuote: .filterErrorUnterminatedQuote
        case .unopenedParenthesis: .filterErrorUnopenedParenthesis
        case .unclosedParenthesis: .filterErrorUnclosedParenthesis
        case .operatorWithoutLeft: .filterErrorOperatorWithoutLeft
        case .operatorWithoutRight: .filterErrorOperatorWithoutRight
        case .negationWithoutTerm: .filterErrorNegationWithoutTerm
        case .unknownField: .filterErrorUnknownField
        case .missingValue: .filterErrorMissingValue
        case .invalidTag: .filterErrorInvalidTag
        case .invalidProject: .filterErrorInvalidProject
        case .invalidPriority: .filterErrorInvalidPriority
        case .invalidStatus: .filterErrorInvalidStatus
        case .invalidFlag: .filterErrorInvalidFlag
        case .invalidWhen: .filterErrorInvalidWhen
        case .emptyPhrase: .filterErrorEmptyPhrase
        case .todoField: .filterErrorTodoField
        case .recordField: .filterErrorRecordField
        case .invalidCategory: .filterErrorInvalidCategory
        case .invalidSource: .filterErrorInvalidSource
        }
    }
}
