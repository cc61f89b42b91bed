import TallyDomain

/// One command as the log holds it: a contiguous run of events sharing one `command` id.
public struct LoggedCommand: Sendable {
    public var id: String
    /// The command's events in log order; never empty.
    public var events: [EventEnvelope]
    /// Ids of the commands this one undid, in marker order (empty unless it is an undo).
    public var undid: [String] = []
    /// Ids of the commands this one redid, in marker order (empty unless it is a redo).
    public var redid: [String] = []

    public var firstSeq: Int64 { events[0].seq }
    public var actor: String { events[0].actor }
    public var recordedAt: Int64 { events[0].recordedAt }
    /// An undo command: its markers say which commands it reverted. Undo commands are not themselves undoable.
    public var isUndo: Bool { !undid.isEmpty }
    public var isRedo: Bool { !redid.isEmpty }

    /// Groups `events` (non-empty, one command id) and reads the markers among them.
    init(events: [EventEnvelope]) throws {
        id = events[0].command
        self.events = events
        for event in events where event.stream == HistoryStream.name {
            switch try Self.decode(event) {
            case .historyUndone(let command): undid.append(command)
            case .historyRedone(let command): redid.append(command)
            default: break
            }
        }
    }

    /// The command's effects: its decoded events without history markers.
    func effects() throws -> [AppliedEvent] {
        try Self.effects(events)
    }

    /// Decodes `events`, leaving out history markers.
    static func effects(_ events: [EventEnvelope]) throws -> [AppliedEvent] {
        var result: [AppliedEvent] = []
        for event in events where event.stream != HistoryStream.name {
            result.append(AppliedEvent(stream: event.stream, event: try decode(event)))
        }
        return result
    }

    /// Decodes one stored event; an unreadable one is a `ReplayError` naming its position.
    static func decode(_ event: EventEnvelope) throws -> DomainEvent {
        do {
            return try EventCatalog.decode(event)
        } catch {
            throw ReplayError(seq: event.seq, type: event.type, reason: error.reason)
        }
    }
}

/// Reads commands from the end of the log.
enum CommandScanner {
    /// Calls `visit` for each command, newest first, until it returns false.
    ///
    /// Reads only as far back as `visit` asks for.
    static func newestFirst(_ log: EventLog, _ visit: (LoggedCommand) throws -> Bool) throws {
        var pending: [EventEnvelope] = []
        var stopped = false
        try log.scanBackward(before: nil) { event in
            if let last = pending.last, last.command != event.command {
                let command = try LoggedCommand(events: pending.reversed())
                pending.removeAll(keepingCapacity: true)
                if try !visit(command) {
                    stopped = true
                    return false
                }
            }
            pending.append(event)
            return true
        }
        if !stopped, !pending.isEmpty {
            _ = try visit(LoggedCommand(events: pending.reversed()))
        }
    }

    /// The read models of `streams` just before `seq`: enough to compute compensations, nothing more.
    /// - Complexity: O(events of those streams).
    static func state(_ log: EventLog, streams: [String], before seq: Int64) throws -> ReadModel {
        var model = ReadModel()
        var seen = Set<String>()
        for stream in streams where seen.insert(stream).inserted {
            for event in try log.events(inStream: stream) where event.seq < seq {
                do {
                    try Reducer.evolve(&model, event)
                } catch {
                    // Passed over as a replay passes it over (`Replayer.fold`).
                    var id = event.stream
                    id.withUTF8 { Reducer.skip(&model, stream: StreamKey(utf8: $0), version: event.version, seq: event.seq) }
                }
            }
        }
        return model
    }
}
