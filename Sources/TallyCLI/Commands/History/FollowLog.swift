#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TallyEngine
import TallyDomain
import TallyArguments

/// `log --follow`: prints each event as it is committed, by any process or device, until Ctrl-C.
///
/// On PostgreSQL the server wakes it (LISTEN/NOTIFY, migration 7); on SQLite it looks at the
/// head a few times a second, one index lookup each, and reads only the events after the last
/// one it printed. It watches before it reads the head, so an event committed in between is
/// read, not missed; every event is printed once, in log order, by its position.
enum FollowLog {
    /// How long a SQLite follower sleeps between looks at the head.
    static let pollMilliseconds: Int32 = 200
    /// How long a PostgreSQL follower waits for the server before it checks for Ctrl-C again.
    static let waitMilliseconds: Int32 = 1000

    static func run(_ command: ParsedCommand, _ context: CLIContext, stream ref: String?, matches: @escaping (EventEnvelope) -> Bool, limit: Int?) throws {
        for option in ["since", "until", "field", "reverse"] where command.has(option) || command.value(option) != nil {
            throw UsageError(kind: .conflictingOptions("--follow", "--" + option), commandPath: command.path)
        }
        try Interruption.watch(stopped: .followStopped) {
            let (log, waited) = try waitForStore(context)
            let watcher = log.appendWatcher
            try watcher?.watchAppends()
            let state = try context.readState(log)
            let stream = try ref.map { try ReferenceResolver.todo($0, in: state).id }
            // The todos an edit makes one wait for by their numbers as they are now; a todo created
            // while following is named by its id's first eight characters.
            let describer = EventDescriber(catalog: context.catalog, zone: context.zone, todoNumbers: TodoNumbers(state))
            func show(_ event: EventEnvelope) {
                guard stream.map({ $0 == event.stream }) ?? true, matches(event) else { return }
                if context.json {
                    context.console.line(JSONShapes.event(event).serialized(.compact))
                } else {
                    context.console.line("\(event.seq)  \(event.type)  " + describer.historyLine(event))
                }
            }
            // A store that did not exist when the command started is new from its first event.
            var last = waited ? 0 : try log.head().seq
            if let limit {
                // The newest `limit` matching events first, oldest first, then the new ones.
                var recent: [EventEnvelope] = []
                try log.scanBackward(before: nil) { event in
                    if event.seq <= last, stream.map({ $0 == event.stream }) ?? true, matches(event) { recent.append(event) }
                    return recent.count < limit
                }
                for event in recent.reversed() { show(event) }
            }
            context.console.flush()
            // Read the head only when something may have been appended: on PostgreSQL when the server
            // said so (a timeout only lets Ctrl-C through), on SQLite at each look.
            var appended = true
            while true {
                try Interruption.check()
                if appended {
                    let head = try log.head().seq
                    if head > last {
                        try log.scan(after: last, through: head) { event in
                            show(event)
                            last = event.seq
                        }
                        context.console.flush()
                    }
                }
                if let watcher {
                    appended = try watcher.waitForAppend(timeoutMs: waitMilliseconds)
                } else {
                    usleep(UInt32(pollMilliseconds) * 1000)
                    appended = true
                }
            }
        }
    }

    /// The store, waiting (without creating it) until it exists; `waited` when it did not at first.
    static func waitForStore(_ context: CLIContext) throws -> (any EventStore, waited: Bool) {
        var waited = false
        while true {
            if try context.openForReading() != nil { return (try context.readLog(), waited) }
            waited = true
            try Interruption.check()
            usleep(UInt32(pollMilliseconds) * 1000)
        }
    }
}
