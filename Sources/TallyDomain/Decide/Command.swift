
/// A todo's fields as the user typed them; the decider validates and normalises them.
public struct TodoInput: Sendable, Equatable {
    public var title: String
    public var tags: [String]
    public var priority: String?
    public var due: String?
    public var note: String?
    public var wait: String?
    /// How the todo recurs (see `RecurrenceInput`); nil for a one-off todo.
    public var recurrence: RecurrenceInput?
    /// `--project home.garden`.
    public var project: String?
    /// `--after REF`: the todos this one waits for.
    public var after: [String] = []
    /// Takes the tags and the project the active context determines (`add --no-context`: false).
    public var fromContext = true

    public init(title: String, tags: [String] = [], priority: String? = nil, due: String? = nil, note: String? = nil, wait: String? = nil, recurrence: RecurrenceInput? = nil, project: String? = nil) {
        self.project = project
        self.title = title
        self.tags = tags
        self.priority = priority
        self.due = due
        self.note = note
        self.wait = wait
        self.recurrence = recurrence
    }
}

/// `--recur PERIOD`, `--recur-from due|completion`, `--until WHEN`, as typed. `until` may be `none` on edit.
public struct RecurrenceInput: Sendable, Equatable {
    public var period: String?
    public var from: String?
    public var until: String?

    public init(period: String? = nil, from: String? = nil, until: String? = nil) {
        self.period = period
        self.from = from
        self.until = until
    }

    public var isEmpty: Bool { period == nil && from == nil && until == nil }
}

/// What `edit` was asked to change, as typed. `"none"` clears priority, due and note.
public struct TodoEditInput: Sendable, Equatable {
    public var title: String?
    /// `+tag` or `tag` adds, `-tag` removes.
    public var tagChanges: [String]
    public var priority: String?
    public var due: String?
    public var note: String?
    public var wait: String?
    /// With `--series`: title, tags, priority and note change the series' template for future instances.
    public var series: Bool
    public var recurrence: RecurrenceInput
    /// `--project P`, or `none` to take the todo out of its project.
    public var project: String?
    /// `--after REF`: wait for these todos too; `--no-after REF`: no longer wait for these.
    public var addAfter: [String] = []
    public var removeAfter: [String] = []

    public init(
        title: String? = nil, tagChanges: [String] = [], priority: String? = nil, due: String? = nil, note: String? = nil,
        wait: String? = nil, series: Bool = false, recurrence: RecurrenceInput = RecurrenceInput(), project: String? = nil
    ) {
        self.project = project
        self.title = title
        self.tagChanges = tagChanges
        self.priority = priority
        self.due = due
        self.note = note
        self.wait = wait
        self.series = series
        self.recurrence = recurrence
    }

    /// True when no field was named at all.
    public var isEmpty: Bool {
        title == nil && tagChanges.isEmpty && priority == nil && due == nil && note == nil && wait == nil && recurrence.isEmpty && project == nil && addAfter.isEmpty && removeAfter.isEmpty
    }
}

/// An activity as the user typed it; the decider validates and converts it.
public struct RecordInput: Sendable, Equatable {
    public var name: String
    public var category: String
    public var duration: String
    public var distance: String?
    public var place: String?
    /// A WHEN; now when absent.
    public var date: String?
    public var note: String?
    public var source: RecordSource
    /// `--effort`, 1-10.
    public var effort: String?
    /// `--gear NAME`; without it the category's default gear.
    public var gear: String?
    /// `--no-gear`: not even the category's default.
    public var noGear: Bool

    public init(
        name: String, category: String, duration: String, distance: String? = nil, place: String? = nil,
        date: String? = nil, note: String? = nil, source: RecordSource = .local, effort: String? = nil,
        gear: String? = nil, noGear: Bool = false
    ) {
        self.name = name
        self.category = category
        self.duration = duration
        self.distance = distance
        self.place = place
        self.date = date
        self.note = note
        self.source = source
        self.effort = effort
        self.gear = gear
        self.noGear = noGear
    }
}

/// What `record edit` was asked to change, as typed. `"none"` clears distance, place and note.
public struct RecordEditInput: Sendable, Equatable {
    public var name: String?
    public var category: String?
    public var duration: String?
    public var distance: String?
    public var place: String?
    public var date: String?
    public var note: String?
    /// `--gear NAME`: the gear it was done with.
    public var gear: String?
    /// `--no-gear`: takes the gear off.
    public var noGear: Bool
    /// `--effort`, 1-10: how hard it felt.
    public var effort: String?
    /// `--no-effort`: clears the effort.
    public var noEffort: Bool

    public init(
        name: String? = nil, category: String? = nil, duration: String? = nil, distance: String? = nil,
        place: String? = nil, date: String? = nil, note: String? = nil, gear: String? = nil, noGear: Bool = false,
        effort: String? = nil, noEffort: Bool = false
    ) {
        self.name = name
        self.category = category
        self.duration = duration
        self.distance = distance
        self.place = place
        self.date = date
        self.note = note
        self.gear = gear
        self.noGear = noGear
        self.effort = effort
        self.noEffort = noEffort
    }

    /// True when no field was named at all.
    public var isEmpty: Bool {
        name == nil && category == nil && duration == nil && distance == nil && place == nil && date == nil && note == nil
            && gear == nil && !noGear && effort == nil && !noEffort
    }
}

/// An intention of the user, in the imperative. The decider turns it into events or rejects it.
public enum Command: Sendable, Equatable {
    case addTodo(TodoInput)
    case toggleTodos([String])
    case toggleAllTodos
    case completeTodos([String])
    case reopenTodos([String])
    case editTodo(String, TodoEditInput)
    case deleteTodos([String])
    case deleteCompletedTodos
    /// Ends the series of each named instance and deletes the instance.
    case endSeries([String])
    case saveTodoFilter(TodoQuery)
    /// Defines (or redefines) a named context of todos: its filter and how a bare `list` shows it.
    case defineContext(name: String, view: TodoQuery)
    /// Makes the named context active; nil: none.
    case useContext(String?)
    /// Forgets a context; when it was active, none is.
    case deleteContext(String)
    case logRecord(RecordInput)
    case editRecord(String, RecordEditInput)
    case deleteRecords([String])
    case saveRecordFilter(RecordQuery)
    case resetFilter(FilterScope)
    /// Todos from another tool. For ones imported before, `earlier` holds what the imports so far made of
    /// them (by stream), and what the source changed since is applied; ones deleted in tally stay deleted
    /// unless `restoreDeleted`.
    case importTodos([ImportedTodo], series: [ImportedSeries] = [], unreadable: [UnreadableRule] = [], earlier: [String: ImportBaseline] = [:], restoreDeleted: Bool = false)
    /// Brings deleted todos back; todos that are not deleted get a notice.
    case restoreTodos([String])
    /// Brings deleted records back; records that are not deleted get a notice.
    case restoreRecords([String])
    /// Activities from device files and exports; ones already in the log are skipped with a notice.
    case importRecords([ImportedRecord])
    /// New analyses of kept track files (`record reanalyze`): each record's track summary is replaced when it differs.
    case reanalyzeRecords([RecordAnalysis])
    /// The athlete's settings from a day on (`athlete set`).
    case setAthlete(AthleteInput)
    /// A new piece of gear (`gear add`).
    case addGear(GearInput)
    /// Changes to a piece of gear, named by its name (`gear edit`, `gear retire`).
    case editGear(String, GearEditInput)
    /// A goal per week, month or year (`goal set`).
    case setGoal(GoalInput)
    /// Removes a goal (`goal remove`).
    case removeGoal(GoalKey)
    // Annotations and time on a todo.
    /// `annotate REF TEXT`.
    case annotateTodo(String, text: String)
    /// `denotate REF N`: takes off the todo's Nth annotation (as `show` numbers them).
    case denotateTodo(String, index: String)
    /// `start REF... [--also] [--at WHEN]`: without `also`, todos running elsewhere are stopped.
    case startTodos([String], also: Bool = false, at: String? = nil)
    /// `stop [REF...] [--at WHEN]`: no REF stops every running todo.
    case stopTodos([String], at: String? = nil)
}
