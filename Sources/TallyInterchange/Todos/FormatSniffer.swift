#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials

/// Guesses which tool wrote a file from its first non-blank line, to point a wrong `--from` the right way.
public enum FormatSniffer {
    /// The formats a first line can be told apart by.
    public enum Format: Sendable, Equatable {
        /// A JSON array, or an object with Taskwarrior's keys (`description`, `uuid`) and no `stream`.
        case taskwarrior
        /// A line that is not JSON at all.
        case todoTxt
        /// A JSON object of another shape (a tally event, or something else).
        case otherJSON
    }

    /// The format of a file whose first non-blank line is `line` (a byte-order mark already removed).
    public static func format(ofFirstLine line: String) -> Format {
        let text = line.trimming(.whitespaces)
        if text.hasPrefix("[") {
            // `[` alone or `[{...` (an array spread over lines), or a whole array of task objects.
            guard let array = (try? JSON.parse(text))?.arrayValue else {
                let rest = text.dropFirst().trimming(.whitespaces)
                return rest.isEmpty || rest.hasPrefix("{") ? .taskwarrior : .otherJSON
            }
            let tasks = array.allSatisfy { $0.objectValue.map { $0["description"] != nil || $0["uuid"] != nil } ?? false }
            return tasks ? .taskwarrior : .otherJSON
        }
        guard text.hasPrefix("{") else { return .todoTxt }
        guard let object = (try? JSON.parse(text))?.objectValue else {
            // An object spread over several lines: look for Taskwarrior's keys on this first line.
            return text.contains("\"description\"") || text.contains("\"uuid\"") || text == "{" ? .taskwarrior : .otherJSON
        }
        return object["stream"] == nil && (object["description"] != nil || object["uuid"] != nil) ? .taskwarrior : .otherJSON
    }

    /// The first non-blank line of `bytes` (without a byte-order mark), or nil when the file is blank or not UTF-8.
    public static func firstLine(_ bytes: [UInt8]) -> String? {
        guard let text = try? ImportSupport.text(bytes) else { return nil }
        return text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
            .first(where: { !$0.allSatisfy(\.isWhitespace) }).map(String.init)
    }
}
