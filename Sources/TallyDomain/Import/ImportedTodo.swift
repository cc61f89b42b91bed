import Foundation

/// Where in a foreign file an item or a problem is.
public enum ImportSource: Sendable, Hashable {
    /// A 1-based line.
    case line(Int)
    /// A 1-based element of a JSON array.
    case item(Int)
    /// A Taskwarrior task, by the first 8 hex digits of its uuid.
    case task(String)
}

/// A todo brought in from another tool, ready for the decider.
///
/// `stream` is derived from the source item (see `NameUUID`), so importing the
/// same file twice finds the todo already present instead of duplicating it.
public struct ImportedTodo: Sendable, Equatable {
    /// The lifecycle state the item had in the other tool.
    public enum Status: String, Sendable, Equatable {
        case pending, completed, deleted
    }

    public var stream: String
    /// Where the item came from, for reports: `line 3`, `task 1c5e2f0a`.
    public var source: ImportSource
    public var fields: TodoFields
    public var status: Status
    /// When the item was created there (ms since the epoch); nil means now.
    public var createdAt: Int64?
    /// When it was completed or deleted there; nil means now.
    public var closedAt: Int64?

    public init(
        stream: String, source: ImportSource, fields: TodoFields, status: Status = .pending,
        createdAt: Int64? = nil, closedAt: Int64? = nil
    ) {
        self.stream = stream
        self.source = source
        self.fields = fields
        self.status = status
        self.createdAt = createdAt
        self.closedAt = closedAt
    }
}

/// Why an item of a foreign file was left out, or what was lost on the way in.
public enum ImportProblem: Sendable, Equatable {
    /// The item has no text to use as the title.
    case missingTitle
    /// A Taskwarrior recurring template; its instances are imported on their own.
    case recurringTemplate
    /// A Taskwarrior status other than pending, waiting, completed or deleted.
    case unknownStatus(String)
    /// A field tally has no place for; its value is dropped.
    case unsupportedField(String)
    /// A todo.txt `key:value` tally has no field for; it stays in the title.
    case unsupportedFieldKeptInTitle(String)
    /// A priority tally cannot map; the todo gets none.
    case unmappedPriority(String)
    /// A date that cannot be read; the field is dropped.
    case invalidDate(field: String, value: String)
    /// A todo.txt `due:` that is not a date; it stays in the title.
    case invalidDateKeptInTitle(field: String, value: String)
    /// The converted fields break a rule of tally (too long, control characters, ...).
    case invalid(InvalidInput)
    /// A recurrence period tally has no rule for; the item comes in without recurrence.
    case invalidPeriod(field: String, value: String)
    /// A recurrence on an item without a due date; the key stays in the title.
    case recurrenceWithoutDue(field: String)
    /// Pending instances of one series after its earliest: tally keeps one open instance per series.
    case laterOccurrencesSkipped(count: Int)
}

/// One problem, and the item it belongs to.
public struct ImportIssue: Sendable, Equatable {
    public var source: ImportSource
    public var problem: ImportProblem

    public init(source: ImportSource, problem: ImportProblem) {
        self.source = source
        self.problem = problem
    }
}

/// What a foreign file yielded: the todos to import, the items skipped, and warnings about kept ones.
public struct ImportBatch: Sendable, Equatable {
    public var todos: [ImportedTodo] = []
    public var skipped: [ImportIssue] = []
    public var warnings: [ImportIssue] = []
    /// Recurring rules; the todos that are their instances name them in `fields.series`.
    public var series: [ImportedSeries] = []

    public init(todos: [ImportedTodo] = [], skipped: [ImportIssue] = [], warnings: [ImportIssue] = [], series: [ImportedSeries] = []) {
        self.series = series
        self.todos = todos
        self.skipped = skipped
        self.warnings = warnings
    }
}

/// A foreign file that cannot be read at all (exit 65): where, and why.
public struct ImportFormatError: Error, Sendable, Equatable {
    public var location: ImportSource
    /// The JSON parser's explanation, in English.
    public var reason: String
    /// The file, once the caller knows it.
    public var path: String?

    public init(location: ImportSource, reason: String, path: String? = nil) {
        self.location = location
        self.reason = reason
        self.path = path
    }
}

/// Name-based UUIDs: the same name always gives the same id.
///
/// Built like RFC 9562's SHA-256 based version 8 example: the first 16 bytes of
/// SHA-256("tally:" + name) with the version and variant bits set.
public enum NameUUID {
    public static func make(_ name: String) -> String {
        var bytes = Array(SHA256.digest(Array(("tally:" + name).utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = SHA256.hex(bytes)
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex[hex.index(hex.startIndex, offsetBy: range.lowerBound)..<hex.index(hex.startIndex, offsetBy: range.upperBound)])
        }
        return parts.joined(separator: "-")
    }
}

/// Helpers the importers share: tags from foreign names, strict UTF-8 lines, validation.
enum ImportSupport {
    /// A foreign project or tag as a tally tag: accents dropped, lowercased, other characters become `-`, at most 32.
    static func tag(_ raw: String) -> String? {
        let folded = raw.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil).lowercased()
        let mapped = folded.unicodeScalars.map { scalar -> Character in
            let value = scalar.value
            let allowed = (value >= 0x61 && value <= 0x7A) || (value >= 0x30 && value <= 0x39) || value == 0x5F || value == 0x2D
            return allowed ? Character(scalar) : "-"
        }
        let tag = String(String(mapped).prefix(Validation.maxTagLength))
        return tag.allSatisfy({ $0 == "-" }) ? nil : tag
    }

    /// The lines of `bytes` (LF or CRLF), each checked to be UTF-8.
    static func lines(_ bytes: [UInt8]) throws(ImportFormatError) -> [String] {
        var lines: [String] = []
        var number = 0
        for slice in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            var line = Array(slice)
            if line.last == 0x0D { line.removeLast() }
            // Decoding replaces invalid sequences with U+FFFD, so only valid UTF-8 survives the round trip.
            // (String(validating:as:) would say it directly but needs macOS 15.)
            let text = String(decoding: line, as: UTF8.self)
            guard text.utf8.elementsEqual(line) else {
                throw ImportFormatError(location: .line(number), reason: "not valid UTF-8 text")
            }
            lines.append(text)
        }
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// The fields checked against tally's rules, as the decider will check them.
    static func validated(_ fields: TodoFields) throws(DomainError) -> TodoFields {
        var fields = fields
        fields.title = try Validation.title(fields.title)
        fields.tags = try Validation.tags(fields.tags)
        fields.note = try fields.note.flatMap { raw throws(DomainError) in try Validation.note(raw) }
        return fields
    }

    /// A day as a due date, or an instant that falls on local midnight read back as that day.
    static func due(instant: Int64, zone: TimeZone) -> Due {
        let date = LocalDate.containing(instant, in: zone)
        return date.startInstant(in: zone) == instant ? .date(date) : .instant(instant)
    }
}

extension ImportSource {
    /// A stable spelling for derived ids: `line:3`, `item:2`, `task:1c5e2f0a`.
    var ordinal: String {
        switch self {
        case .line(let number): "line:\(number)"
        case .item(let number): "item:\(number)"
        case .task(let id): "task:\(id)"
        }
    }
}
