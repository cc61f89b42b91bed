import TallyEssentials

/// The fields a todo is created with.
public struct TodoFields: Sendable, Equatable {
    public var title: String
    public var tags: [String]
    public var priority: Priority?
    public var due: Due?
    public var note: String?
    /// Hidden from `list` until then.
    public var wait: Due?
    /// The series this todo is an instance of.
    public var series: String?
    /// Set only by imports: where the todo came from.
    public var origin: TodoOrigin?
    /// The project (`home.garden`); written to the payload only when set.
    public var project: String?
    /// The todos this one waits for; written to the payload only when there are some.
    public var after: [String]

    public init(
        title: String, tags: [String] = [], priority: Priority? = nil, due: Due? = nil, note: String? = nil,
        wait: Due? = nil, series: String? = nil, origin: TodoOrigin? = nil, project: String? = nil, after: [String] = []
    ) {
        self.after = after
        self.title = title
        self.tags = tags
        self.priority = priority
        self.due = due
        self.note = note
        self.wait = wait
        self.series = series
        self.origin = origin
        self.project = project
    }
}

/// The fields an edit changes. `nil` means unchanged; for nullable fields `.some(nil)` clears.
public struct TodoChanges: Sendable, Equatable {
    public var title: String?
    public var tags: [String]?
    public var priority: Priority??
    public var due: Due??
    public var note: String??
    public var wait: Due??
    /// Makes the todo an instance of a series (or no longer one).
    public var series: String??
    public var project: String??
    /// The whole new list of todos this one waits for.
    public var after: [String]?

    public init(
        title: String? = nil, tags: [String]? = nil, priority: Priority?? = nil, due: Due?? = nil, note: String?? = nil,
        wait: Due?? = nil, series: String?? = nil, project: String?? = nil, after: [String]? = nil
    ) {
        self.after = after
        self.title = title
        self.tags = tags
        self.priority = priority
        self.due = due
        self.note = note
        self.wait = wait
        self.series = series
        self.project = project
    }

    /// True when the edit would change nothing at all.
    public var isEmpty: Bool {
        title == nil && tags == nil && priority == nil && due == nil && note == nil && wait == nil && series == nil && project == nil && after == nil
    }
}

/// The fields an activity is logged with.
public struct RecordFields: Sendable, Equatable {
    public var name: String
    public var category: String
    public var durationSeconds: Int
    public var distanceMeters: Double?
    public var place: String?
    /// When the activity happened, in ms since the epoch.
    public var date: Int64
    public var note: String?
    public var source: RecordSource
    /// Figures computed from an imported track file, which the blob store keeps by its SHA-256.
    public var track: TrackSummary?
    /// How hard it felt, 1-10 (session RPE); the `effort` key of `record.logged`, absent when not given.
    public var effort: Int?
    /// The gear it was done with (a gear stream id); the `gear` key of `record.logged`, absent when none.
    public var gear: String?

    public init(
        name: String, category: String, durationSeconds: Int, distanceMeters: Double? = nil, place: String? = nil,
        date: Int64, note: String? = nil, source: RecordSource = .local, track: TrackSummary? = nil, effort: Int? = nil,
        gear: String? = nil
    ) {
        self.name = name
        self.category = category
        self.durationSeconds = durationSeconds
        self.distanceMeters = distanceMeters
        self.place = place
        self.date = date
        self.note = note
        self.source = source
        self.track = track
        self.effort = effort
        self.gear = gear
    }
}

/// The fields a record edit changes. `nil` means unchanged; for nullable fields `.some(nil)` clears.
public struct RecordChanges: Sendable, Equatable {
    public var name: String?
    public var category: String?
    public var durationSeconds: Int?
    public var distanceMeters: Double??
    public var place: String??
    public var date: Int64?
    public var note: String??
    /// A new analysis of the record's kept track file (`record reanalyze`); never clears the track.
    public var track: TrackSummary?
    /// The gear it was done with (a gear stream id); `.some(nil)` takes it off.
    public var gear: String??
    /// How hard it felt, 1-10 (session RPE; `record edit --effort`); `.some(nil)` clears it (`--no-effort`).
    public var effort: Int??

    public init(
        name: String? = nil, category: String? = nil, durationSeconds: Int? = nil, distanceMeters: Double?? = nil,
        place: String?? = nil, date: Int64? = nil, note: String?? = nil, track: TrackSummary? = nil, gear: String?? = nil,
        effort: Int?? = nil
    ) {
        self.name = name
        self.category = category
        self.durationSeconds = durationSeconds
        self.distanceMeters = distanceMeters
        self.place = place
        self.date = date
        self.note = note
        self.track = track
        self.gear = gear
        self.effort = effort
    }

    /// True when the edit would change nothing at all.
    public var isEmpty: Bool {
        name == nil && category == nil && durationSeconds == nil && distanceMeters == nil && place == nil && date == nil && note == nil
            && track == nil && gear == nil && effort == nil
    }
}

/// Which saved default view a filter event is about.
public enum FilterScope: String, Sendable, CaseIterable {
    case todos, records

    /// The stream that holds the scope's saved filter.
    public var stream: String { "filter:\(rawValue)" }
}

/// An immutable fact, named in the past tense. The envelope (stream, time, actor) lives in `EventEnvelope`.
public enum DomainEvent: Sendable, Equatable {
    case todoCreated(TodoFields)
    case todoEdited(TodoChanges)
    case todoCompleted
    case todoReopened
    case todoDeleted
    case todoRestored
    case recordLogged(RecordFields)
    case recordEdited(RecordChanges)
    case recordDeleted
    case recordRestored
    case filterSaved(scope: FilterScope, filter: JSONObject)
    case filterReset(scope: FilterScope)
    case historyUndone(command: String)
    case historyRedone(command: String)
    /// Values erased for good from earlier events (stream `history`): which field of which item,
    /// in which events, and why; never the value.
    case historyRedacted(RedactionFacts)
    case seriesStarted(SeriesFields)
    case seriesChanged(SeriesChanges)
    case seriesEnded
    case seriesResumed
    /// The athlete's settings from a day on (stream `athlete`).
    case athleteSet(AthleteEntry)
    /// A piece of gear was added (its own UUID stream).
    case gearAdded(GearFields)
    /// Gear renamed, its retirement distance changed, retired or back in use, removed (undo of its adding).
    case gearChanged(GearChanges)
    /// The gear new activities of a category get (stream `gear:defaults`); nil: none.
    case gearDefaulted(category: String, gear: String?)
    /// A goal set or changed (stream `goals`).
    case goalSet(Goal)
    /// A goal removed (stream `goals`).
    case goalRemoved(GoalKey)
    // Annotations and time on a todo.
    /// A dated note added to a todo (`tally annotate`).
    case todoAnnotated(Annotation)
    /// The annotation with this id is taken off (`tally denotate`, or undo of an annotation).
    case todoDenotated(id: String)
    /// The interval beginning at `start` is running (`end` nil, `tally start`) or spans to `end`
    /// (an import, or redo of a removed interval).
    case todoStarted(start: Int64, end: Int64?)
    /// The running interval ends (`tally stop`).
    case todoStopped(at: Int64)
    /// The interval that began at `start` is taken back (undo of a start).
    case todoUnstarted(start: Int64)
}

/// What a `history.redacted` event records.
public struct RedactionFacts: Sendable, Equatable {
    /// The stream (todo, record or series id) whose events lost the value.
    public var stream: String
    /// The field erased: `title`, `note`, `tags`, `project`, `name` or `place` (the payload key),
    /// or `annotations` (the `text` of the todo's `todo.annotated` events).
    public var field: String
    /// With field `annotations`: the id of the one annotation whose text is erased; nil for all.
    public var annotation: String?
    /// The positions of the events the value was erased from, ascending.
    public var events: [Int64]
    /// Why, as the user gave it; nil when not given.
    public var reason: String?

    public init(stream: String, field: String, events: [Int64], reason: String?, annotation: String? = nil) {
        self.stream = stream
        self.field = field
        self.annotation = annotation
        self.events = events
        self.reason = reason
    }

    /// The most events one redaction may name.
    public static let maxEvents = 100_000
    /// The longest reason.
    public static let maxReasonLength = 500
}
