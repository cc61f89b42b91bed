#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// CLDR plural categories used by the catalogs.
enum PluralCategory: Sendable, Hashable {
    case one, few, many, other
}

/// One message in one language: plain text or plural forms, with `{name}` placeholders.
enum Template: Sendable {
    case text(String)
    case plural([PluralCategory: String])
}

/// A language: its plural rule and a template for every message id.
struct Language: Sendable {
    var code: String
    var pluralRule: @Sendable (Int) -> PluralCategory
    /// The template of a message id; nil where the language has none (the catalog falls back).
    var lookup: @Sendable (MessageID) -> Template?

    func template(_ id: MessageID) -> Template? { lookup(id) }
}

/// Every human-facing string, looked up by id; adding a language is adding data.
struct Catalog: Sendable {
    let language: Language
    /// Used when `language` lacks a message, so output never goes blank.
    let fallback: Language
    /// Spell symbols in ASCII (`->` for `→`) because the terminal is not UTF-8.
    let asciiSymbols: Bool

    init(language: Language, fallback: Language = .english, asciiSymbols: Bool = false) {
        self.language = language
        self.fallback = fallback
        self.asciiSymbols = asciiSymbols
    }

    static let english = Catalog(language: .english)

    /// The text of `id` with its placeholders filled.
    func text(_ id: MessageID, _ arguments: [String: String] = [:]) -> String {
        render(template(id), count: nil, arguments)
    }

    /// The text of a plural message for `count`; `{count}` is filled too.
    func plural(_ id: MessageID, count: Int, _ arguments: [String: String] = [:]) -> String {
        var arguments = arguments
        arguments["count"] = String(count)
        return render(template(id), count: count, arguments)
    }

    private func template(_ id: MessageID) -> Template {
        language.template(id) ?? fallback.template(id) ?? .text(id.rawValue)
    }

    private func render(_ template: Template, count: Int?, _ arguments: [String: String]) -> String {
        let pattern: String
        switch template {
        case .text(let text):
            pattern = text
        case .plural(let forms):
            let category = language.pluralRule(count ?? 0)
            pattern = forms[category] ?? forms[.other] ?? ""
        }
        let text = Self.fill(pattern, arguments)
        return asciiSymbols ? Self.asciiFallbacks.reduce(text) { $0.replacingAll($1.0, with: $1.1) } : text
    }

    /// Symbols the templates use, and what a terminal without UTF-8 gets instead.
    static let asciiFallbacks = [("→", "->"), ("…", "..."), ("–", "-")]

    /// Replaces `{name}` with its argument; unknown names are left as they are.
    static func fill(_ pattern: String, _ arguments: [String: String]) -> String {
        // On the UTF-8 bytes: `contains("{")` is Foundation's substring search, 13% of a 10k-row list.
        guard pattern.utf8.contains(UInt8(ascii: "{")) else { return pattern }
        var result = ""
        var rest = Substring(pattern)
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            if let value = arguments[name] {
                // Values come from outside (titles, file names, what was typed): never raw control characters.
                result += TerminalText.escaped(value)
            } else {
                result += rest[open...close]
            }
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        return result
    }
}

extension Catalog {
    /// The language with a catalog for the code a locale name starts with; English otherwise.
    static func language(code: String) -> Language {
        switch code {
        case "cs": .czech
        default: .english
        }
    }

    /// The catalog the locale asks for: the first non-empty of `LC_ALL`, `LC_MESSAGES`, `LANG`; English otherwise.
    static func forEnvironment(_ environment: [String: String]) -> Catalog {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        let code = locale.prefix { $0.isLetter }.lowercased()
        return Catalog(language: language(code: code), asciiSymbols: !Settings.useUnicode(environment: environment))
    }
}
