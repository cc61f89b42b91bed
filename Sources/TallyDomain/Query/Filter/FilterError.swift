import TallyEssentials
/// Why a filter expression was refused, and the character it points at.
public struct FilterError: Error, Sendable, Equatable {
    /// What is wrong, as a key the CLI's catalog translates.
    public enum Key: String, Sendable, CaseIterable {
        case empty, tooLong, tooDeep, tooManyTerms, controlCharacter
        case unterminatedQuote, unopenedParenthesis, unclosedParenthesis
        case operatorWithoutLeft, operatorWithoutRight, negationWithoutTerm
        case unknownField, missingValue, invalidTag, invalidProject, invalidPriority, invalidStatus, invalidFlag
        case invalidWhen, emptyPhrase
        case todoField, recordField, invalidCategory, invalidSource

        /// The English template; `{name}` placeholders are filled from the arguments.
        public var english: String {
            switch self {
            case .empty: "the filter is empty"
            case .tooLong: "the filter is longer than {max} characters"
            case .tooDeep: "parentheses and negations are nested deeper than {max}"
            case .tooManyTerms: "the filter has more than {max} terms"
            case .controlCharacter: "control characters are not allowed"
            case .unterminatedQuote: "this quote is never closed"
            case .unopenedParenthesis: "this ')' closes nothing"
            case .unclosedParenthesis: "this '(' is never closed"
            case .operatorWithoutLeft: "'{word}' needs a term before it"
            case .operatorWithoutRight: "'{word}' needs a term after it"
            case .negationWithoutTerm: "'{word}' needs a term right after it"
            case .unknownField: "unknown field '{field}' (fields: {fields}; quote a word to search for it)"
            case .missingValue: "'{field}:' needs a value"
            case .invalidTag: "'{value}' is not a tag (letters, digits, _ and -)"
            case .invalidProject: "'{value}' is not a project (names like tags, joined by dots)"
            case .invalidPriority: "'{value}' is not a priority (H, M, L or none)"
            case .invalidStatus: "'{value}' is not a status ({values})"
            case .invalidFlag: "'{value}' is not one of {values}"
            case .invalidWhen: "'{value}' is not a date"
            case .emptyPhrase: "an empty phrase has nothing to search for"
            case .todoField: "'{field}:' is a field of todos, not of records (fields: {fields})"
            case .recordField: "'{field}:' is a field of records, not of todos (fields: {fields})"
            case .invalidCategory: "'{value}' is not a category (a lowercase word: a-z, 0-9 and -)"
            case .invalidSource: "'{value}' is not a source ({values})"
            }
        }
    }

    /// The character (counted from 0, in characters as the user sees them) the error points at.
    public let offset: Int
    public let key: Key
    public let arguments: [String: String]
    /// For `invalidWhen`: why the date was refused.
    public let value: ValueError?

    public init(at offset: Int, _ key: Key, _ arguments: [String: String] = [:], value: ValueError? = nil) {
        self.offset = offset
        self.key = key
        self.arguments = arguments
        self.value = value
    }

    /// The English sentence, with the date's own reason after it.
    public var english: String {
        var text = ValueReasonText.fill(key.english, arguments)
        if let value { text += ": " + value.reason }
        return text
    }
}
