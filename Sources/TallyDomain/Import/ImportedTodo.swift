#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials

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
/// `stream` is derived from the source item (see `NameUUID`), so importing the same file twice
/// finds the todo already present instead of duplicating it. When it was created there travels in
/// `fields.origin`.
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
    /// When it was completed or deleted there (ms since the epoch); nil means now.
    public var closedAt: Int64?
    /// Its annotations: the text and when it was written there (nil: when the todo was created there, else now).
    public var annotations: [(at: Int64?, text: String)] = []
    /// When it was started there (Taskwarrior `start`): a running interval, closed at `closedAt` when it is not pending.
    public var started: Int64?
    /// When it was last changed there (Taskwarrior `modified`): a re-import stops an interval the source
    /// stopped since at this time, the latest the stop can have been (the export keeps no stop time).
    public var modifiedAt: Int64?
    /// A Taskwarrior template whose rule cannot be a series, so it comes in as one todo: the series stream
    /// it would be. When that series is in tally (an earlier import made it), the item is left out.
    public var templateOf: String?

    public static func == (lhs: ImportedTodo, rhs: ImportedTodo) -> Bool {
        lhs.stream == rhs.stream && lhs.source == rhs.source && lhs.fields == rhs.fields && lhs.status == rhs.status
            && lhs.closedAt == rhs.closedAt && lhs.started == rhs.started && lhs.modifiedAt == rhs.modifiedAt && lhs.templateOf == rhs.templateOf
            && lhs.annotations.map(\.at) == rhs.annotations.map(\.at) && lhs.annotations.map(\.text) == rhs.annotations.map(\.text)
    }

    public init(stream: String, source: ImportSource, fields: TodoFields, status: Status = .pending, closedAt: Int64? = nil) {
        self.stream = stream
        self.source = source
        self.fields = fields
        self.status = status
        self.closedAt = closedAt
    }
}

/// A recurring template whose rule tally cannot express: refused when an earlier import made it a series.
public struct UnreadableRule: Sendable, Equatable {
    /// The series stream the template becomes when its rule can be read.
    public var stream: String
    public var source: ImportSource
    public var reason: SeriesRefusal

    public init(stream: String, source: ImportSource, reason: SeriesRefusal) {
        self.stream = stream
        self.source = source
        self.reason = reason
    }
}

/// Why a re-import left a series' rule as it was: tally cannot express what the source now says.
public enum SeriesRefusal: Sendable, Equatable {
    /// The first due date moved (a series counts from its start, which no event changes).
    case startMoved(from: Due, to: Due)
    /// The period is not one tally has (`recur` value).
    case unreadablePeriod(String)
    /// The template has no due date (or no usable title) any more.
    case noStart
}

/// What the importer had to do to an item, or why it left one out.
public enum ImportProblem: Sendable, Equatable {
    /// A Taskwarrior task without a description (or a blank one): skipped, as there is nothing to call it.
    case missingTitle
    /// A todo.txt line with nothing after its markers; the whole line became the title.
    case markersOnly
    /// A Taskwarrior recurring template whose instances are in the file; they are imported instead.
    case recurringTemplate
    /// A recurring template without any of its instances in the file: imported as one todo.
    case recurringTemplateImported
    /// A Taskwarrior status other than pending, waiting, recurring, completed or deleted.
    case unknownStatus(String)
    /// A Taskwarrior field tally has no place for; kept in the note as `field: value`.
    case unsupportedField(String)
    /// A todo.txt `key:value` tally has no field for; it stays in the title.
    case unsupportedFieldKeptInTitle(String)
    /// A Taskwarrior priority other than H, M or L; kept in the note.
    case unmappedTaskwarriorPriority(String)
    /// A todo.txt `pri:` whose value is not one capital letter; it stays in the title.
    case invalidPriorityKeptInTitle(String)
    /// A todo.txt priority other than (A), (B) or (C); kept in the note.
    case unmappedTodoTxtPriority(String)
    /// A date field that cannot be read; what was used instead.
    case invalidDate(field: String, value: String, fallback: DateFallback)
    /// A todo.txt `due:` that is not a date; it stays in the title.
    case invalidDateKeptInTitle(field: String, value: String)
    /// Completed or deleted before it was created: created at the closing time, the source's creation time kept in the note.
    case closedBeforeCreated(created: Int64, closed: Int64)
    /// Tabs or other control characters in the title became spaces.
    case controlCharactersReplaced
    /// The text has line breaks: the title has spaces there, the whole text is in the note.
    case titleLinesJoined
    /// The text is longer than a title may be: the title is its start, the whole text is in the note.
    case titleShortened(max: Int)
    /// Tags that do not fit tally's rules (too long, past the count limit, no letter or digit).
    case tagsKeptInNote([String])
    /// todo.txt `+project`/`@context` words that cannot be tags; they stay in the title.
    case tagsKeptInTitle([String])
    /// The note would be longer than a note may be; its end was cut.
    case noteShortened(max: Int, cut: Int)
    /// A Taskwarrior uuid seen again: the later task replaces the earlier one, as `task import` does.
    case duplicateTask(earlier: ImportSource)
    /// Taskwarrior `tags` given as one string: split at commas, as `task import` does.
    case tagsFromString
    /// A Taskwarrior field not in the shape `task` writes (`"annotations": "text"`); its text is kept in the note.
    case malformedField(String)
    /// A Taskwarrior annotation without a description (`task import` refuses it); left out.
    case annotationWithoutDescription
    /// Annotations that cannot be annotations (over 1000 characters, several lines, past the 1000th): kept in the note.
    case annotationsKeptInNote(count: Int)
    /// The converted fields break a rule of tally (should not happen: the importers make every item fit).
    case invalid(InvalidInput)
    /// A recurrence period tally has no rule for; the item comes in without recurrence.
    case invalidPeriod(field: String, value: String)
    /// A recurrence on an item without a due date; the key stays in the title.
    case recurrenceWithoutDue(field: String)
    /// Pending instances of one series after its earliest: tally keeps one open instance per series.
    case laterOccurrencesSkipped(count: Int)
    /// A todo.txt key given a second time on one line (`due:`, `t:`, `rec:`); the second stays in the title.
    case repeatedFieldKeptInTitle(String)
    /// A Taskwarrior `depends` on a task of the file that would close a circle of tasks waiting for each
    /// other (tally has none): that uuid is kept in the note. The circle as uuid prefixes, first = last.
    case dependencyCycleKeptInNote([String])
    /// A Taskwarrior `depends` on tasks that are not in the file (their uuids): kept in the note.
    case dependencyNotInFile([String])
    /// A Taskwarrior `depends` on more tasks than a todo may wait for: the uuids past the limit are kept in the note.
    case dependenciesPastLimit(max: Int, [String])
}

/// What a date that cannot be read was replaced with.
public enum DateFallback: String, Sendable, Equatable {
    /// Nothing: the field is left out, its text kept in the note.
    case keptInNote
    /// The time of the import.
    case importTime
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
    /// Templates whose rule cannot be a series.
    public var unreadableRules: [UnreadableRule] = []

    public init(todos: [ImportedTodo] = [], skipped: [ImportIssue] = [], warnings: [ImportIssue] = [], series: [ImportedSeries] = []) {
        self.series = series
        self.todos = todos
        self.skipped = skipped
        self.warnings = warnings
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

extension ImportSource {
    /// A stable spelling for derived ids: `line:3`, `item:2`, `task:1c5e2f0a`.
    public var ordinal: String {
        switch self {
        case .line(let number): "line:\(number)"
        case .item(let number): "item:\(number)"
        case .task(let id): "task:\(id)"
        }
    }
}
