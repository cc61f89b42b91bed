import Foundation
import Testing
import TallyEngine
import TallyDomain
import TallySQLite
import TallyTestSupport
@testable import TallyEssentials

/// One piece of wrong or malicious input and what tally must answer.
struct HostileCase: Sendable, CustomTestStringConvertible {
    /// What the database looks like before the command runs.
    enum Setup: Sendable {
        /// A copy of the seeded database.
        case seeded
        /// The seeded database, then this SQL through the sqlite3 shell (triggers may be dropped first).
        case sql(String)
        /// `TALLY_DB` is the temporary directory itself.
        case databaseIsDirectory
        /// `TALLY_DB` is a file of these bytes.
        case databaseFile([UInt8])
        /// The seeded database cut to this many bytes.
        case truncated(Int)
        /// The seeded database, readable but not writable for the user running tally.
        case readOnly
        /// The seeded database; the bytes FF FE (not UTF-8) are passed as one more argument.
        case invalidUTF8Argument
    }

    let name: String
    let arguments: [String]
    var setup: Setup = .seeded
    /// Written to `input.txt` in the case's directory; `$FILE` in the arguments becomes its path.
    var file: [UInt8]?
    let exit: Int32
    /// Must appear in stderr.
    let message: String

    var testDescription: String { name }

    init(_ name: String, _ arguments: [String], setup: Setup = .seeded, file: [UInt8]? = nil, exit: Int32, _ message: String) {
        self.name = name
        self.arguments = arguments
        self.setup = setup
        self.file = file
        self.exit = exit
        self.message = message
    }
}

/// The seeded database every case starts from: two todos whose ids share the prefix `abcd`,
/// a completed todo, a record and a saved view. Built once, copied per case.
enum HostileSeed {
    static let alpha = "abcd1111-0000-4000-8000-000000000001"
    static let beta = "abcd2222-0000-4000-8000-000000000002"
    /// The id of Alpha's `todo.created` event.
    static let alphaEvent = "e0000000-0000-4000-8000-000000000001"

    static let directory = TemporaryDirectory("tally-hostile-seed")
    static let path: String = {
        let path = directory.path("seed.db")
        let ids = [
            alpha, "c0000000-0000-4000-8000-000000000001", alphaEvent,
            beta, "c0000000-0000-4000-8000-000000000002", "e0000000-0000-4000-8000-000000000002",
        ]
        let counter = SequentialIDs(prefix: "f0000000-0000-4000-8000-")
        let fixed = SequentialIDs()
        let environment = AppEnvironment(
            now: { Fixtures.epoch },
            makeID: {
                let next = Int(fixed.make().suffix(12))!
                return next <= ids.count ? ids[next - 1] : counter.make()
            },
            actor: "seed@host", zone: Fixtures.utc
        )
        let log = try! SQLiteEventLog.openForWriting(path: path, now: Fixtures.epoch)
        let dispatcher = Dispatcher(log: log, environment: environment)
        _ = try! dispatcher.execute(.addTodo(TodoInput(title: "Alpha")))
        _ = try! dispatcher.execute(.addTodo(TodoInput(title: "Beta", tags: ["shop"])))
        _ = try! dispatcher.execute(.addTodo(TodoInput(title: "Buy milk")))
        _ = try! dispatcher.execute(.completeTodos(["3"]))
        _ = try! dispatcher.execute(.logRecord(RecordInput(name: "Run", category: "run", duration: "30m", distance: "5km")))
        _ = try! dispatcher.execute(.saveTodoFilter(TodoQuery(status: .active)))
        log.close()
        return path
    }()
    static let events: Int64 = 6
}

/// Builders for JSON Lines import cases.
enum HostileLines {
    static let event = "11111111-1111-4111-8111-111111111111"
    static let stream = "22222222-2222-4222-8222-222222222222"
    static let command = "33333333-3333-4333-8333-333333333333"

    /// A valid `todo.created` line; `edit` changes its JSON text before it is returned.
    static func created(title: String = "Imported", version: String = "1", _ edit: (String) -> String = { $0 }) -> String {
        edit(#"{"id":"\#(event)","stream":"\#(stream)","version":\#(version),"type":"todo.created","schema":2,"recordedAt":"2026-11-20T10:00:00Z","actor":"a@b","command":"\#(command)","data":{"title":"\#(title)","tags":[],"priority":null,"due":null,"note":null}}"#)
    }

    static func bytes(_ lines: String...) -> [UInt8] {
        Array((lines.joined(separator: "\n") + "\n").utf8)
    }
}

@Suite("Hostile input: every case exits with its code and a clear message, and appends nothing")
struct HostileInputTests {
    static let longTitle = String(repeating: "a", count: 100_000)
    static let megabyte = String(repeating: "m", count: 1_000_000)

    static let usage: [HostileCase] = [
        HostileCase("unknown command", ["frobnicate"], exit: 64, "Unknown command 'frobnicate'."),
        HostileCase("misspelled command", ["lsit"], exit: 64, "Did you mean 'list'?"),
        HostileCase("unknown subcommand", ["record", "frob"], exit: 64, "Unknown command 'frob'."),
        HostileCase("unknown option", ["add", "x", "--frobnicate"], exit: 64, "Unknown option '--frobnicate'."),
        HostileCase("unknown short option", ["-x"], exit: 64, "Unknown option '-x'."),
        HostileCase("missing title", ["add"], exit: 64, "Missing expected argument 'TITLE'."),
        HostileCase("missing option value", ["add", "x", "--priority"], exit: 64, "Missing value for option '--priority'."),
        HostileCase("missing global option value", ["--db"], exit: 64, "Missing value for option '--db'."),
        HostileCase("repeated single-value option", ["add", "x", "--priority", "high", "--priority", "low"], exit: 64, "Option '--priority' given more than once."),
        HostileCase("sort key that does not exist", ["list", "--sort", "bogus"], exit: 64, "Invalid value 'bogus' for '--sort'"),
        HostileCase("status that does not exist", ["list", "--status", "maybe"], exit: 64, "expected one of active, completed, all"),
        HostileCase("no REF", ["toggle"], exit: 64, "Missing expected argument 'REF'."),
        HostileCase("extra argument", ["show", "1", "2"], exit: 64, "Unexpected argument '2'."),
        HostileCase("edit without changes", ["edit", "1"], exit: 64, "Nothing to change"),
        HostileCase("record without its required options", ["record", "add", "Run"], exit: 64, "Missing required options '--category' and '--duration'."),
        HostileCase("record without its duration", ["record", "add", "Run", "--category", "run"], exit: 64, "Missing expected argument '--duration'."),
        HostileCase("stats grouping that does not exist", ["stats", "--by", "decade"], exit: 64, "expected one of week, month, category, year"),
        HostileCase("completions for an unknown shell", ["completions", "tcsh"], exit: 64, "expected one of bash, zsh, fish"),
        HostileCase("import format that does not exist", ["import", "--from", "csv", "x"], exit: 64, "expected one of tally, taskwarrior, todotxt"),
        HostileCase("negative number read as an option", ["toggle", "-1"], exit: 64, "Unknown option '-1'."),
    ]

    static let invalidData: [HostileCase] = [
        HostileCase("30 February", ["add", "x", "--due", "2026-02-30"], exit: 65, "February 2026 has 28 days"),
        HostileCase("hour 25", ["add", "x", "--due", "25:00"], exit: 65, "Invalid date or time '25:00'"),
        HostileCase("hour 25 after a word", ["add", "x", "--due", "tomorrow 25:00"], exit: 65, "Invalid date or time 'tomorrow 25:00'"),
        HostileCase("month 13", ["add", "x", "--due", "2026-13-01"], exit: 65, "month must be 01-12"),
        HostileCase("second 99", ["add", "x", "--due", "2026-11-21T10:00:99"], exit: 65, "second must be 00-59"),
        HostileCase("impossible --as-of", ["list", "--as-of", "2026-02-30"], exit: 65, "February 2026 has 28 days"),
        HostileCase("impossible --due-before", ["list", "--due-before", "2026-02-30"], exit: 65, "February 2026 has 28 days"),
        HostileCase("log since a word", ["log", "--since", "notatime"], exit: 65, "Invalid date or time 'notatime'"),
        HostileCase("priority that does not exist", ["add", "x", "--priority", "urgent"], exit: 65, "Invalid priority 'urgent'"),
        HostileCase("tag with a space", ["add", "x", "--tag", "Bad Tag"], exit: 65, "Invalid tag 'Bad Tag'"),
        HostileCase("tag of 33 characters", ["add", "x", "--tag", String(repeating: "t", count: 33)], exit: 65, "tags are 1-32 letters or digits"),
        HostileCase("21 tags", ["add", "x"] + (1...21).flatMap { ["--tag", "t\($0)"] }, exit: 65, "Too many tags: at most 20."),
        HostileCase("empty title", ["add", ""], exit: 65, "The title is empty."),
        HostileCase("blank title", ["add", "   "], exit: 65, "The title is empty."),
        HostileCase("control character in the title", ["add", "a\u{01}b"], exit: 65, "The title contains control characters."),
        HostileCase("escape sequence in the title", ["add", "\u{1B}[31mred"], exit: 65, "The title contains control characters."),
        HostileCase("newline in the title", ["add", "line\nbreak"], exit: 65, "The title contains control characters."),
        HostileCase("control character in a record name", ["record", "add", "R\u{07}", "--category", "run", "--duration", "1m"], exit: 65, "The name contains control characters."),
        HostileCase("title of 501 characters", ["add", String(repeating: "a", count: 501)], exit: 65, "The title is longer than 500 characters."),
        HostileCase("title of 100 KB", ["add", longTitle], exit: 65, "The title is longer than 500 characters."),
        HostileCase("note of 10001 characters", ["add", "x", "--note", String(repeating: "n", count: 10_001)], exit: 65, "The note is longer than 10000 characters."),
        HostileCase("record name of 201 characters", ["record", "add", String(repeating: "r", count: 201), "--category", "run", "--duration", "1m"], exit: 65, "The name is longer than 200 characters."),
        HostileCase("limit zero", ["list", "--limit", "0"], exit: 65, "Invalid number '0'"),
        HostileCase("negative limit", ["list", "--limit", "-5"], exit: 65, "Invalid number '-5'"),
        HostileCase("limit past 64 bits", ["list", "--limit", "99999999999999999999"], exit: 65, "Invalid number '99999999999999999999'"),
        HostileCase("undo zero steps", ["undo", "--steps", "0"], exit: 65, "Invalid number '0'"),
        HostileCase("undo a word of steps", ["undo", "--steps", "abc"], exit: 65, "Invalid number 'abc'"),
        HostileCase("negative duration", ["record", "add", "Run", "--category", "run", "--duration", "-5m"], exit: 65, "must not be negative"),
        HostileCase("zero duration", ["record", "add", "Run", "--category", "run", "--duration", "0"], exit: 65, "above zero and at most 7 days"),
        HostileCase("duration of eight days", ["record", "add", "Run", "--category", "run", "--duration", "192h"], exit: 65, "above zero and at most 7 days"),
        HostileCase("huge duration", ["record", "add", "Run", "--category", "run", "--duration", "99999999999999999999h"], exit: 65, "Invalid duration '99999999999999999999h'"),
        HostileCase("duration in words", ["record", "add", "Run", "--category", "run", "--duration", "abc"], exit: 65, "Invalid duration 'abc'"),
        HostileCase("duration with an unknown unit", ["record", "add", "Run", "--category", "run", "--duration", "1h30x"], exit: 65, "unknown unit 'x'"),
        HostileCase("negative distance", ["record", "add", "Run", "--category", "run", "--duration", "30m", "--distance", "-1km"], exit: 65, "Invalid distance '-1km': must not be negative"),
        HostileCase("distance over 1000 km", ["record", "add", "Run", "--category", "run", "--duration", "30m", "--distance", "1001km"], exit: 65, "between 0 and 1000 km"),
        HostileCase("distance with a huge exponent", ["record", "add", "Run", "--category", "run", "--duration", "30m", "--distance", "1e400"], exit: 65, "Invalid distance '1e400'"),
        HostileCase("distance that is not a number", ["record", "add", "Run", "--category", "run", "--duration", "30m", "--distance", "nan"], exit: 65, "Invalid distance 'nan'"),
        HostileCase("category with punctuation", ["record", "add", "Run", "--category", "Run!", "--duration", "30m"], exit: 65, "Invalid category 'Run!'"),
        HostileCase("record two days ahead", ["record", "add", "Run", "--category", "run", "--duration", "30m", "--date", "2026-11-23"], exit: 65, "more than a day in the future"),
        HostileCase("invalid UTF-8 in an argument", ["add"], setup: .invalidUTF8Argument, exit: 65, "Argument 2 is not valid UTF-8."),
    ]

    static let references: [HostileCase] = [
        HostileCase("unknown number", ["toggle", "99"], exit: 1, "No todo matches '99'."),
        HostileCase("number zero", ["show", "0"], exit: 1, "No todo matches '0'."),
        HostileCase("unknown id prefix", ["done", "ffff"], exit: 1, "No todo matches 'ffff'."),
        HostileCase("ambiguous id prefix", ["done", "abcd"], exit: 1, "'abcd' matches 2 todos"),
        HostileCase("one unknown among known", ["toggle", "1", "2", "77"], exit: 1, "No todo matches '77'."),
        HostileCase("unknown record", ["record", "show", "9"], exit: 1, "No record matches '9'."),
        HostileCase("edit an unknown record", ["record", "edit", "9", "--name", "x"], exit: 1, "No record matches '9'."),
    ]

    static let imports: [HostileCase] = [
        HostileCase("import: not JSON", ["import", "$FILE"], file: HostileLines.bytes("not json"), exit: 65, "looks like a todo.txt file, not a tally export. Use 'tally import --from todotxt"),
        HostileCase("import: a Taskwarrior export without --from", ["import", "$FILE"], file: HostileLines.bytes(#"[{"uuid":"a0000000-a000-a000-a000-a00000000000","description":"zero"}]"#), exit: 65, "looks like a Taskwarrior export, not a tally export. Use 'tally import --from taskwarrior"),
        HostileCase("import: one Taskwarrior task per line without --from", ["import", "$FILE"], file: HostileLines.bytes(#"{"description":"zero","status":"pending"}"#), exit: 65, "--from taskwarrior"),
        HostileCase("import --from todotxt: a JSON file", ["import", "--from", "todotxt", "$FILE"], file: HostileLines.bytes(#"{"description":"zero"}"#), exit: 65, "is JSON, not a todo.txt file"),
        HostileCase("import --from taskwarrior: a todo.txt file", ["import", "--from", "taskwarrior", "$FILE"], file: HostileLines.bytes("(A) Call Mom"), exit: 65, "line 1: unexpected character"),
        HostileCase("import: an array, not an object", ["import", "$FILE"], file: HostileLines.bytes("[1,2]"), exit: 65, "Line 1: not a JSON object"),
        HostileCase("import: version as a string", ["import", "$FILE"], file: HostileLines.bytes(HostileLines.created(version: #""1""#)), exit: 65, "field 'version' is not a whole number"),
        HostileCase("import: unknown event type", ["import", "$FILE"], file: HostileLines.bytes(HostileLines.created { $0.replacingOccurrences(of: "todo.created", with: "todo.exploded") }), exit: 65, "unknown event type"),
        HostileCase("import: missing data", ["import", "$FILE"], file: HostileLines.bytes(HostileLines.created { $0.replacingOccurrences(of: #","data":{"title":"Imported","tags":[],"priority":null,"due":null,"note":null}"#, with: "") }), exit: 65, "missing field 'data'"),
        HostileCase("import: missing stream", ["import", "$FILE"], file: HostileLines.bytes(HostileLines.created { $0.replacingOccurrences(of: #""stream":"\#(HostileLines.stream)","#, with: "") }), exit: 65, "missing field 'stream'"),
        HostileCase("import: missing payload field", ["import", "$FILE"], file: HostileLines.bytes(HostileLines.created { $0.replacingOccurrences(of: #","priority":null"#, with: "") }), exit: 65, "missing field 'priority'"),
        HostileCase("import: title of the wrong type", ["import", "$FILE"], file: HostileLines.bytes(HostileLines.created { $0.replacingOccurrences(of: #""title":"Imported""#, with: #""title":42"#) }), exit: 65, "field 'title' is not a string"),
        HostileCase("import: truncated last line", ["import", "$FILE"], file: Array((HostileLines.created() + "\n" + HostileLines.created().prefix(90)).utf8), exit: 65, "Line 2: not valid JSON"),
        HostileCase("import: invalid UTF-8", ["import", "$FILE"], file: [0xFF, 0xFE, 0x00, 0x0A], exit: 65, "invalid UTF-8"),
        HostileCase("import: a 1 MB title", ["import", "$FILE"], file: HostileLines.bytes(HostileLines.created(title: megabyte)), exit: 65, "field 'title' is not 1-500 characters"),
        HostileCase("import: control character in the title", ["import", "$FILE"], file: HostileLines.bytes(HostileLines.created(title: #"a\u0007b"#)), exit: 65, "field 'title'"),
        HostileCase("import: an origin of an unknown tool", ["import", "$FILE"], file: HostileLines.bytes(HostileLines.created { $0.replacingOccurrences(of: #""schema":2"#, with: #""schema":3"#).replacingOccurrences(of: #""note":null}"#, with: #""note":null,"origin":{"tool":"jira","id":"X-1","createdAt":null}}"#) }), exit: 65, "field 'origin' is not an object with tool, id and createdAt"),
        HostileCase("import: invalid tag", ["import", "$FILE"], file: HostileLines.bytes(HostileLines.created { $0.replacingOccurrences(of: #""tags":[]"#, with: #""tags":["Bad Tag"]"#) }), exit: 65, "tag 'Bad Tag'"),
        HostileCase("import: stream that is not a UUID", ["import", "$FILE"], file: HostileLines.bytes(HostileLines.created { $0.replacingOccurrences(of: HostileLines.stream, with: "filter:todos") }), exit: 65, "field 'stream' is not a lowercase UUID"),
        HostileCase("import: future schema", ["import", "$FILE"], file: HostileLines.bytes(HostileLines.created { $0.replacingOccurrences(of: #""schema":2"#, with: #""schema":99"#) }), exit: 65, "unsupported schema 99"),
        HostileCase("import: time that is not an instant", ["import", "$FILE"], file: HostileLines.bytes(HostileLines.created { $0.replacingOccurrences(of: "2026-11-20T10:00:00Z", with: "yesterday") }), exit: 65, "'recordedAt' is not an ISO-8601 instant"),
        HostileCase("import: a good line, then a bad one", ["import", "$FILE"], file: HostileLines.bytes(HostileLines.created(), "{}"), exit: 65, "Line 2: missing field"),
        HostileCase("import: duplicate id with other content", ["import", "$FILE"], file: HostileLines.bytes(HostileLines.created { $0.replacingOccurrences(of: HostileLines.event, with: HostileSeed.alphaEvent).replacingOccurrences(of: HostileLines.stream, with: HostileSeed.alpha) }), exit: 1, "is already in the log with different content"),
        HostileCase("import: the same id twice with other content", ["import", "$FILE"], file: HostileLines.bytes(HostileLines.created(), HostileLines.created(title: "Other", version: "2")), exit: 1, "is already in the log with different content"),
        HostileCase("import: a version gap", ["import", "$FILE"], file: HostileLines.bytes(HostileLines.created(version: "3")), exit: 1, "continues at version 1, but the event has version 3"),
        HostileCase("import: a file that does not exist", ["import", "/nonexistent/export.jsonl"], exit: 66, "Cannot open /nonexistent/export.jsonl"),
        HostileCase("import: a directory", ["import", "/"], exit: 66, "Cannot open /"),
        HostileCase("import: malformed Taskwarrior JSON", ["import", "--from", "taskwarrior", "$FILE"], file: Array(#"[{"description": }]"#.utf8), exit: 65, "Malformed input at"),
    ]

    static let databases: [HostileCase] = [
        HostileCase("database path is a directory", ["add", "x"], setup: .databaseIsDirectory, exit: 74, "is a directory, not a database file"),
        HostileCase("database path is a directory, reading", ["list"], setup: .databaseIsDirectory, exit: 74, "is a directory, not a database file"),
        HostileCase("a text file, not SQLite", ["add", "x"], setup: .databaseFile(Array(String(repeating: "hello, not a database\n", count: 200).utf8)), exit: 74, "not a tally database"),
        HostileCase("random bytes, reading", ["list"], setup: .databaseFile((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) }), exit: 74, "not a tally database"),
        HostileCase("a truncated database, reading", ["list"], setup: .truncated(4196), exit: 74, "damaged"),
        HostileCase("a truncated database, writing", ["add", "x"], setup: .truncated(4196), exit: 74, "damaged"),
        HostileCase("a database from a newer schema", ["list"], setup: .sql("INSERT INTO schema_migrations VALUES (99, '0099_future', 0)"), exit: 74, "schema version 99"),
        HostileCase("a database from a newer schema, writing", ["add", "x"], setup: .sql("INSERT INTO schema_migrations VALUES (99, '0099_future', 0)"), exit: 74, "schema version 99"),
        HostileCase("a read-only database, writing", ["add", "x"], setup: .readOnly, exit: 74, "read-only"),
    ]

    /// Input forms of restore, record list --deleted, --db and --as-of at the edges of the log.
    static let firstHour: [HostileCase] = [
        HostileCase("empty --db path", ["--db", "", "list"], exit: 64, "Missing value for option '--db'."),
        HostileCase("empty --db path, writing", ["--db", "", "add", "x"], exit: 64, "Missing value for option '--db'."),
        HostileCase("restore without REF", ["restore"], exit: 64, "Missing expected argument 'REF'."),
        HostileCase("restore an unknown todo", ["restore", "99"], exit: 1, "No todo matches '99'."),
        HostileCase("restore an ambiguous prefix", ["restore", "abcd"], exit: 1, "'abcd' matches 2 todos"),
        HostileCase("restore one unknown among known", ["restore", "1", "77"], exit: 1, "No todo matches '77'."),
        HostileCase("record restore without REF", ["record", "restore"], exit: 64, "Missing expected argument 'REF'."),
        HostileCase("record restore an unknown record", ["record", "restore", "9"], exit: 1, "No record matches '9'."),
        HostileCase("record filter show with an argument", ["record", "filter", "show", "yes"], exit: 64, "Unexpected argument 'yes'."),
        HostileCase("--as-of past the end of the log", ["list", "--as-of", "@99999"], exit: 65, "the log ends at @"),
        HostileCase("stats --as-of past the end of the log", ["stats", "--as-of", "@99999"], exit: 65, "the log ends at @"),
        HostileCase("show a todo before it existed", ["show", "2", "--as-of", "@1"], exit: 1, "Todo 2 did not exist yet at @1."),
        HostileCase("show a record before it existed", ["record", "show", "1", "--as-of", "@1"], exit: 1, "Record 1 did not exist yet at @1."),
        HostileCase("distance without a unit", ["record", "add", "Run", "--category", "run", "--duration", "30m", "--distance", "5"], exit: 65, "a unit is required (km, m or mi)"),
        HostileCase("distance in words", ["record", "add", "Run", "--category", "run", "--duration", "30m", "--distance", "far"], exit: 65, "expected a number and a unit, like 5km, 800m or 3.1mi."),
    ]

    static let all = usage + invalidData + references + imports + databases + firstHour + recurrence

    static let recurrence: [HostileCase] = [
        HostileCase("period zero", ["add", "x", "--due", "tomorrow", "--recur", "0d"], exit: 65, "Invalid period '0d': the number must be from 1 to 999"),
        HostileCase("period of 1000 weeks", ["add", "x", "--due", "tomorrow", "--recur", "1000w"], exit: 65, "the number must be from 1 to 999"),
        HostileCase("period past 64 bits", ["add", "x", "--due", "tomorrow", "--recur", "99999999999999999999d"], exit: 65, "Invalid period '99999999999999999999d'"),
        HostileCase("negative period", ["add", "x", "--due", "tomorrow", "--recur", "-1w"], exit: 65, "Invalid period '-1w'"),
        HostileCase("fractional period", ["add", "x", "--due", "tomorrow", "--recur", "1.5m"], exit: 65, "Invalid period '1.5m'"),
        HostileCase("period in words", ["add", "x", "--due", "tomorrow", "--recur", "fortnightly"], exit: 65, "Invalid period 'fortnightly'"),
        HostileCase("empty period", ["add", "x", "--due", "tomorrow", "--recur", ""], exit: 65, "Invalid period '': is empty"),
        HostileCase("recurrence without a due date", ["add", "x", "--recur", "weekly"], exit: 65, "needs a due date"),
        HostileCase("until without a recurrence", ["add", "x", "--due", "tomorrow", "--until", "eoy"], exit: 65, "--until needs --recur PERIOD"),
        HostileCase("until before the first due date", ["add", "x", "--due", "2026-12-01", "--recur", "weekly", "--until", "2026-11-30"], exit: 65, "--until 2026-11-30 is before the first due date 2026-12-01"),
        HostileCase("recur-from that does not exist", ["add", "x", "--due", "tomorrow", "--recur", "weekly", "--recur-from", "later"], exit: 64, "expected one of due, completion"),
        HostileCase("edit --series of a one-off todo", ["edit", "1", "--series", "--title", "y"], exit: 65, "Todo 1 does not recur"),
        HostileCase("delete --series of a one-off todo", ["delete", "--series", "1"], exit: 65, "Todo 1 does not recur"),
        HostileCase("next friday is ambiguous", ["add", "x", "--due", "next fri"], exit: 65, "write 'fri' for the next such day"),
        HostileCase("day and month order is ambiguous", ["add", "x", "--due", "3/4/2026"], exit: 65, "write 2026-04-03 or 2026-03-04"),
        HostileCase("a letter that fits two weekdays", ["add", "x", "--due", "t"], exit: 65, "could mean tuesday or thursday"),
        HostileCase("m for minutes or months", ["add", "x", "--due", "in 3 m"], exit: 65, "write 'in 3 minutes' or 'in 3 months'"),
        HostileCase("in without a unit", ["list", "--due-before", "in 3"], exit: 65, "a unit is required"),
        HostileCase("za with seven digits", ["add", "x", "--due", "za 9999999 dní"], exit: 65, "at most 6 digits"),
        HostileCase("a million years ahead", ["add", "x", "--due", "in 999999 years"], exit: 65, "outside the years 0001-9999"),
        HostileCase("impossible --wait", ["add", "x", "--wait", "2026-02-30"], exit: 65, "February 2026 has 28 days"),
        HostileCase("import: a series with a bad period", ["import", "$FILE"], file: HostileLines.bytes(HostileLines.created {
            $0.replacingOccurrences(of: #""type":"todo.created","schema":2"#, with: #""type":"series.started","schema":1"#)
              .replacingOccurrences(of: #""due":null,"#, with: #""every":"0d","from":"due","start":"2026-11-21","until":null,"#)
        }), exit: 65, "field 'every' is not a period"),
        HostileCase("import: an instance whose series is not a UUID", ["import", "$FILE"], file: HostileLines.bytes(HostileLines.created {
            $0.replacingOccurrences(of: #""schema":2"#, with: #""schema":4"#).replacingOccurrences(of: #""note":null"#, with: #""note":null,"wait":null,"series":"rent""#)
        }), exit: 65, "field 'series' is not a lowercase UUID"),
    ]

    @Test("the catalog is large enough and its names are unique")
    func catalogSize() {
        #expect(Self.all.count >= 60)
        #expect(Set(Self.all.map(\.name)).count == Self.all.count)
    }

    @Test("hostile input", arguments: all)
    func hostile(_ hostile: HostileCase) throws {
        let tally = TallyRunner()
        let database = tally.databasePath
        try FileManager.default.copyItem(atPath: HostileSeed.path, toPath: database)
        var launcher: [String] = []
        var environment: [String: String] = [:]
        switch hostile.setup {
        case .seeded:
            break
        case .sql(let sql):
            try sqlite(database, sql)
        case .databaseIsDirectory:
            environment["TALLY_DB"] = tally.directory.url.path
        case .databaseFile(let bytes):
            try Data(bytes).write(to: URL(fileURLWithPath: database))
        case .truncated(let length):
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: database))
            try handle.truncate(atOffset: UInt64(length))
            try handle.close()
        case .readOnly:
            launcher = try ReadOnlyAccess.prepare(directory: tally.directory.url, database: database)
        case .invalidUTF8Argument:
            launcher = ["/bin/sh", "-c", #"exec "$0" "$@" "$(printf '\377\376')""#]
        }
        var arguments = hostile.arguments
        if let file = hostile.file {
            let path = tally.directory.path("input.txt")
            try Data(file).write(to: URL(fileURLWithPath: path))
            arguments = arguments.map { $0 == "$FILE" ? path : $0 }
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: database))

        let result = tally.run(arguments, environment: environment, launcher: launcher)

        #expect(result.status == hostile.exit, "stderr: \(result.stderr.prefix(300))")
        #expect(result.stderr.hasPrefix("Error: "), "\(result.stderr.prefix(300))")
        #expect(result.stderr.contains(hostile.message), "\(result.stderr.prefix(300))")
        #expect(!result.stderr.contains("Fatal error") && result.stdout.isEmpty)
        switch hostile.setup {
        case .seeded, .invalidUTF8Argument:
            #expect(tally.eventCount == HostileSeed.events, "events were appended")
            #expect(tally.run("verify").status == 0)
        case .readOnly:
            ReadOnlyAccess.restore(directory: tally.directory.url, database: database)
            #expect(tally.eventCount == HostileSeed.events, "events were appended")
        default:
            #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before, "the database file changed")
        }
    }
}

/// Makes a database readable but not writable for the process that runs tally.
///
/// As root, permissions do not stop writes, so tally then runs as `nobody` through `setpriv`;
/// otherwise the file and its directory lose their write bits.
enum ReadOnlyAccess {
    /// Returns the launcher to put before the tally binary (empty when none is needed).
    static func prepare(directory: URL, database: String) throws -> [String] {
        let manager = FileManager.default
        if getuid() == 0, manager.isExecutableFile(atPath: "/usr/bin/setpriv") {
            try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
            try manager.setAttributes([.posixPermissions: 0o644], ofItemAtPath: database)
            return ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        }
        try manager.setAttributes([.posixPermissions: 0o444], ofItemAtPath: database)
        try manager.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.path)
        return []
    }

    /// Gives the directory and file their write bits back, so the runner can read and clean up.
    static func restore(directory: URL, database: String) {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: database)
    }
}

@Suite("The database file on its own")
struct SelfContainedFileTests {
    @Test("after a command exits, the main file alone holds every event (the write-ahead log is folded back)")
    func mainFileIsComplete() throws {
        let tally = TallyRunner()
        for title in ["one", "two", "three"] { #expect(tally.run("add", title).status == 0) }
        #expect(tally.run("record", "add", "Run", "--category", "run", "--duration", "20m").status == 0)
        let copy = tally.directory.path("copy.db")
        try FileManager.default.copyItem(atPath: tally.databasePath, toPath: copy)
        let copied = tally.run(["info", "--json"], environment: ["TALLY_DB": copy])
        #expect(copied.json?.objectValue?["events"]?.intValue == 4)
        #expect(tally.run(["verify"], environment: ["TALLY_DB": copy]).status == 0)
    }
}
