/// A problem with how the command line was written, reported before anything runs.
///
/// Option names inside `Kind` are display-ready (`--tag`, `-t`), argument names are the
/// spec's placeholders (`TITLE`), so every message can quote them verbatim.
public struct UsageError: Error, Sendable, Equatable {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        case unknownCommand(String, suggestion: String?)
        case unknownOption(String, suggestion: String?)
        case missingValue(option: String)
        case missingArgument(String)
        case unexpectedArgument(String)
        case repeatedOption(String)
        case invalidValue(option: String, value: String, allowed: [String])
        case conflictingOptions(String, String)
        case custom(String)
    }

    public var kind: Kind
    /// Canonical path of the command being parsed, for "See 'tally list --help'".
    public var commandPath: [String]

    public init(kind: Kind, commandPath: [String]) {
        self.kind = kind
        self.commandPath = commandPath
    }
}

extension UsageError {
    /// Creates an error; `commandPath` defaults to the top level.
    public init(_ kind: Kind, commandPath: [String] = []) {
        self.kind = kind
        self.commandPath = commandPath
    }

    /// English message, used by tests and when the message catalog has no entry.
    public var englishDescription: String {
        switch kind {
        case .unknownCommand(let word, let suggestion):
            "Unknown command '\(word)'." + Self.didYouMean(suggestion)
        case .unknownOption(let option, let suggestion):
            "Unknown option '\(option)'." + Self.didYouMean(suggestion)
        case .missingValue(let option):
            "Missing value for option '\(option)'."
        case .missingArgument(let name):
            "Missing expected argument '\(name)'."
        case .unexpectedArgument(let argument):
            "Unexpected argument '\(argument)'."
        case .repeatedOption(let option):
            "Option '\(option)' given more than once."
        case .invalidValue(let option, let value, let allowed):
            "Invalid value '\(value)' for '\(option)': expected one of \(allowed.joined(separator: ", "))."
        case .conflictingOptions(let first, let second):
            "Options '\(first)' and '\(second)' cannot be used together."
        case .custom(let message):
            message
        }
    }

    /// The pointer to further help: "See 'tally list --help' for more information."
    public func englishHelpHint(programName: String = "tally") -> String {
        let command = ([programName] + commandPath + ["--help"]).joined(separator: " ")
        return "See '\(command)' for more information."
    }

    private static func didYouMean(_ suggestion: String?) -> String {
        guard let suggestion else { return "" }
        return " Did you mean '\(suggestion)'?"
    }
}
