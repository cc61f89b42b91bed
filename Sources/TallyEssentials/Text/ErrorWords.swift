/// An error as words for a message: its own description when it has one, otherwise a plain phrase;
/// never a type name, a module path or a dump of its fields (`GzipError(reason: ...)`).
public enum ErrorWords {
    /// What a message says for an error that has no words of its own.
    public static let unknown = "an error tally has no description for"

    public static func text(_ error: any Error) -> String {
        guard let described = error as? CustomStringConvertible else { return unknown }
        let text = described.description
        return looksLikeDump(text) ? unknown : text
    }

    /// True when `text` reads as a type dump: it starts with a type or case name and an opening
    /// parenthesis (`PGError(sqlState: ...`, `io("...")`), or is Foundation's `Error Domain=` form.
    public static func looksLikeDump(_ text: String) -> Bool {
        if text.isEmpty || text.contains("Error Domain=") { return true }
        let name = text.utf8.prefix { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x5F }
        return !name.isEmpty && text.utf8.dropFirst(name.count).first == 0x28
    }
}
