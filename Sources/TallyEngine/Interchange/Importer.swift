import TallyDomain

/// What an import did.
public struct ImportSummary: Sendable, Equatable {
    /// Events read (blank lines are not counted).
    public var read = 0
    public var appended = 0
    /// Events already in the log with identical content.
    public var skipped = 0
}

/// Why an import was refused. Nothing is appended when one is thrown.
public enum ImportError: Error, Sendable, Equatable {
    /// The line is not an event (bad JSON, a missing or mistyped field, an unknown type, a payload that does not decode).
    case malformed(line: Int, reason: String)
    /// The event cannot join this log.
    case conflict(line: Int, ImportConflict)
}

/// How an imported event clashes with the log.
public enum ImportConflict: Sendable, Equatable {
    /// The log has an event with this id and different content.
    case differentContent(id: String)
    /// Another event already holds this stream version.
    case versionTaken(stream: String, version: Int)
    /// The event would leave a gap in its stream.
    case versionGap(stream: String, expected: Int, found: Int)
}

/// Appends exported events to a log, all or nothing, recomputing `seq` and `hash`.
///
/// An event whose id is already present with identical content is skipped, so importing the same
/// file twice changes nothing. Each event must continue its stream (version = last + 1).
public struct Importer {
    private let log: EventLog
    private var head: LogHead
    /// Stream to last version, filled from the log the first time a stream is seen.
    private var versions = UUIDKeyedMap()
    /// An import into an empty log needs no lookups: every stream starts at version 0.
    private let startedEmpty: Bool
    public private(set) var summary = ImportSummary()

    private init(log: EventLog, head: LogHead) {
        self.log = log
        self.head = head
        startedEmpty = head.seq == 0
    }

    /// Runs one import in one write transaction. `lines` calls its argument with every line's bytes and 1-based number.
    public static func run(
        into log: EventLog,
        lines: ((UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws -> Void
    ) throws -> ImportSummary {
        try log.bulkWrite {
            var importer = Importer(log: log, head: try log.head())
            try lines { bytes, number in try importer.add(bytes, line: number) }
            return importer.summary
        }
    }

    /// `run` for lines that may come already decoded: `decodedLines` calls its argument with every line's
    /// bytes, 1-based number and `EventLines.decode` of those bytes, chained ahead (`PreparedEvent`), when it
    /// was made beforehand (on another thread), or nil to decode it here. A line that did not decode is
    /// passed with nil, so its error is made and reported here, in the order of the file.
    public static func run(
        into log: EventLog,
        decodedLines: ((UnsafeBufferPointer<UInt8>, Int, PreparedEvent?) throws -> Void) throws -> Void
    ) throws -> ImportSummary {
        try log.bulkWrite {
            var importer = Importer(log: log, head: try log.head())
            try decodedLines { bytes, number, decoded in try importer.add(bytes, line: number, decoded: decoded) }
            return importer.summary
        }
    }

    /// Validates and appends one line; blank lines are ignored. `decoded`, when given, is `EventLines.decode(bytes)`, chained ahead.
    /// - Complexity: O(line length), plus one lookup the first time a stream is seen and one by id for a repeat.
    mutating func add(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, decoded: PreparedEvent? = nil) throws {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        summary.read += 1
        let event: ImportedEvent
        if let decoded {
            event = decoded.event
        } else {
            do {
                event = try EventLines.decode(bytes)
            } catch {
                throw ImportError.malformed(line: line, reason: error.reason)
            }
        }
        let current: Int
        if let known = versions[event.stream] {
            current = known
        } else if startedEmpty {
            current = 0
        } else {
            current = try log.lastVersion(ofStream: event.stream)
        }
        if event.version <= current {
            guard let existing = try log.event(id: event.id) else {
                throw ImportError.conflict(line: line, .versionTaken(stream: event.stream, version: event.version))
            }
            guard event.sameContent(as: existing) else {
                throw ImportError.conflict(line: line, .differentContent(id: event.id))
            }
            versions[event.stream] = current
            summary.skipped += 1
            return
        }
        guard event.version == current + 1 else {
            throw ImportError.conflict(line: line, .versionGap(stream: event.stream, expected: current + 1, found: event.version))
        }
        let envelope = decoded?.envelope(after: head) ?? event.envelope(seq: head.seq + 1, previous: head.hash)
        do {
            try log.append([envelope])
        } catch {
            switch error {
            case .duplicateEventID: throw ImportError.conflict(line: line, .differentContent(id: event.id))
            case .conflict: throw ImportError.conflict(line: line, .versionTaken(stream: event.stream, version: event.version))
            default: throw error
            }
        }
        head = LogHead(seq: envelope.seq, hash: envelope.hash)
        versions[event.stream] = event.version
        summary.appended += 1
    }
}
