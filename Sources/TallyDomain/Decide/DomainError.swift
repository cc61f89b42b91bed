
/// The kinds of item a REF can name.
public enum ItemKind: String, Sendable {
    case todo, record
}

/// An item offered when a REF matches more than one.
public struct RefCandidate: Sendable, Equatable {
    public var number: Int
    public var id: String
    public var label: String

    public init(number: Int, id: String, label: String) {
        self.number = number
        self.id = id
        self.label = label
    }
}

/// Input the user gave that the domain refuses (exit 65 at the command line).
public enum InvalidInput: Sendable, Equatable {
    case value(ValueError)
    case emptyTitle
    case titleTooLong(max: Int)
    case controlCharacters(field: String)
    case invalidTag(String)
    case tooManyTags(max: Int)
    case invalidPriority(String)
    case noteTooLong(max: Int)
    case invalidLimit(String)
    case emptyName
    case textTooLong(field: String, max: Int)
    case invalidCategory(String)
    case durationOutOfRange(seconds: Int)
    case distanceOutOfRange(meters: Double)
    case dateTooFarInFuture(String)
    /// A value would break the limits every door shares (`EventRules`); the English reason.
    case outsideLimits(reason: String)
    /// `--recur` needs `--due`: the first occurrence.
    case recurrenceWithoutDue
    /// `--recur-from` or `--until` without a recurrence to apply to.
    case recurrenceOptionWithoutRecur(String)
    /// `--until` falls before the first due date.
    case untilBeforeDue(until: String, due: String)
    /// `--recur-from` is neither `due` nor `completion`.
    case invalidRecurFrom(String)
    /// `--series` on a todo that is not an instance of a series.
    case notRecurring(number: Int)
    /// A training option's value is not a whole number in its range (`--max-hr 300`): the option, the
    /// value as typed, the lowest and highest allowed.
    case trainingValue(option: String, value: String, low: Int, high: Int)
    /// `--hr-zones` is not four increasing whole percentages.
    case invalidZones(String)
    /// Athlete settings that contradict each other (English reason).
    case athleteConflict(String)
    /// `athlete set` without any value.
    case athleteNothingToSet
    /// `--after` names the todo itself.
    case waitsForItself(number: Int)
    /// `--after` would close a cycle of todos waiting for each other: their numbers, first = last.
    case dependencyCycle([Int])
    /// A todo would wait for more than `max` others.
    case tooManyDependencies(max: Int)
    /// Not a project: tag-like names joined by dots.
    case invalidProject(String)
    /// A filter expression does not parse; the error points at a character of `expression`.
    case filter(FilterError, expression: String)
    // Annotations and time on a todo.
    /// `annotate` without text.
    case emptyAnnotation
    /// `denotate REF N`: the todo has no annotation N (it has `count`).
    case noSuchAnnotation(number: Int, index: String, count: Int)
    /// `start --at` / `stop --at` later than now, or a stop before its start: the time as typed.
    case badIntervalTime(String)
    /// `start` on a completed todo.
    case startCompleted(number: Int)
    /// No context has this name.
    case unknownContext(String)
    /// Not a context name: like a tag, and not a word `tally context` reads as an action.
    case invalidContextName(String)
    /// More contexts than `max`.
    case tooManyContexts(max: Int)
}

/// Why a command was rejected. Nothing is appended when one is thrown.
public enum DomainError: Error, Sendable, Equatable {
    /// The input is malformed or out of range.
    case invalid(InvalidInput)
    /// No item matches the REF.
    case unknownReference(ItemKind, String)
    /// More than one item matches the REF prefix.
    case ambiguousReference(ItemKind, String, candidates: [RefCandidate])
    /// The item is deleted; restore it (undo) before changing it.
    case itemDeleted(ItemKind, number: Int)
    /// A gear command or `--gear` refused (exit 1).
    case gear(GearRefusal)
    /// `goal remove` of a goal that is not set (exit 1).
    case noGoal(GoalKey)
}

/// Why gear could not be used or changed as asked.
public enum GearRefusal: Sendable, Equatable {
    /// No gear has this name.
    case unknown(String)
    /// Another piece of gear has this name already (names compare without case).
    case duplicate(String)
    /// The gear is for another category than the activity's: gear name, its category, the activity's.
    case otherCategory(gear: String, gearCategory: String, category: String)
    /// Retired gear cannot be a category's default.
    case retiredDefault(String)
    /// At most `max` pieces of gear.
    case tooMany(max: Int)
}
