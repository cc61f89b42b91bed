#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials

/// The world a decision may look at: the clock, the local zone and a source of new ids.
public struct DecisionContext: Sendable {
    /// Now, in ms since the Unix epoch.
    public var now: Int64
    public var zone: Zone
    /// Returns a fresh lowercase UUID for a new stream.
    public var makeID: @Sendable () -> String

    public init(now: Int64, zone: Zone, makeID: @escaping @Sendable () -> String) {
        self.now = now
        self.zone = zone
        self.makeID = makeID
    }
}

/// Something worth telling the user about a command that still succeeded.
public enum Notice: Sendable, Equatable {
    case alreadyCompleted(number: Int)
    case alreadyActive(number: Int)
    case alreadyDeleted(number: Int)
    case unchanged(number: Int)
    case recordUnchanged(number: Int)
    case recordAlreadyDeleted(number: Int)
    case noTodos
    case noCompletedTodos
    case filterUnchanged(FilterScope)
    case noSavedFilter(FilterScope)
    /// A context command that changes nothing: the context (nil: none) is already so.
    case contextUnchanged(String?)
    /// An imported item is in the log already (an earlier import brought it in).
    case alreadyImported(source: ImportSource)
    /// `restore` named a todo that is not deleted.
    case notDeleted(number: Int)
    /// `record restore` named a record that is not deleted.
    case recordNotDeleted(number: Int)
    /// An imported activity (by its stream) is in the log already, and not deleted.
    case recordAlreadyImported(id: String)
    /// `athlete set` gave the values that day already has.
    case athleteUnchanged
    /// `gear edit` or `gear retire` asked for what the gear already is.
    case gearUnchanged(name: String)
    /// `goal set` gave the goal it already is.
    case goalUnchanged
    /// Completing or deleting its last pending blocker made this todo ready.
    case becameReady(number: Int, title: String)
    /// A deleted todo no longer blocks these (their numbers).
    case noLongerBlocks(number: Int, dependents: [Int])
    // Files holding several activities (multisport legs, GPX days).
    /// An earlier version imported this file as the one record `number`: the file's other parts
    /// were not added beside it (`record reanalyze` splits it).
    case recordImportedWhole(number: Int)
    // Annotations and time on a todo.
    /// `start` named a todo that is running already (since that instant).
    case alreadyRunning(number: Int, since: Int64)
    /// `stop` named a todo that is not running.
    case notRunning(number: Int)
    /// `stop` without REF found nothing running.
    case nothingRunning
    // Re-import (todos)
    /// A re-import applied what changed in the source since the last import to this todo.
    case importUpdated(source: ImportSource, number: Int, changes: [ImportChange])
    /// The source still has an item whose todo was deleted in tally; it stays deleted (with
    /// `openInstance`, even though a restore was asked for: that instance of its series is open).
    case importKeptDeleted(source: ImportSource, number: Int, openInstance: Int?)
    /// A re-import changed a series' rule as its template was changed in the source (`open`: the number of
    /// its open instance, if any).
    case importSeriesUpdated(source: ImportSource, open: Int?, changes: [ImportChange])
    /// A re-import left a series' rule as it was: tally cannot express what the source says now.
    case importSeriesRefused(source: ImportSource, reason: SeriesRefusal)
    /// A todo an import of an earlier tally made, with Taskwarrior's project as a tag, or its annotations,
    /// start or depends as note lines: a re-import leaves its tags, note, project, dependencies,
    /// annotations and time as they are (see `ImportBaseline.isLegacy`) and applies the rest.
    case importLegacyLeftAlone(source: ImportSource, number: Int)
}

/// What the decider concluded: the events to append, notices, and the items the command touched.
public struct Decision: Sendable, Equatable {
    public var events: [PendingEvent]
    public var notices: [Notice]
    /// Stream ids of the items the command named or changed, in command order.
    public var affected: [String]

    public init(events: [PendingEvent] = [], notices: [Notice] = [], affected: [String] = []) {
        self.events = events
        self.notices = notices
        self.affected = affected
    }
}
