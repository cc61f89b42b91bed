#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TallyEngine
import TallyDomain
import TallySQLite

/// The library's bulk append path, as `import` uses it: chain hashes and append in one transaction.
enum BulkAppend {
    static let batchSize = 10_000

    /// Appends `events` (hashes empty) to a fresh store at `path`: the timed part of the import figure.
    static func run(_ events: inout [EventEnvelope], path: String) throws {
        let log = try SQLiteEventLog.openForWriting(path: path, now: 0)
        try log.write {
            var previous = try log.head()
            var start = 0
            while start < events.count {
                let end = min(start + batchSize, events.count)
                for index in start..<end {
                    events[index].hash = EventHash.link(previous: previous.hash, events[index])
                    previous = LogHead(seq: events[index].seq, hash: events[index].hash)
                }
                try log.append(Array(events[start..<end]))
                start = end
            }
        }
    }

    /// Fills in the hash chain of `events` (seq 1 onwards), as the log would.
    static func chain(_ events: inout [EventEnvelope]) {
        var previous = EventHash.genesis
        for index in events.indices {
            events[index].hash = EventHash.link(previous: previous, events[index])
            previous = events[index].hash
        }
    }

    /// Writes `events` as a `tally export` file.
    static func export(_ events: [EventEnvelope], to path: String) throws {
        guard let file = fopen(path, "w") else { throw Bench.Failure(description: "cannot write \(path)") }
        defer { fclose(file) }
        for event in events {
            let line = EventLines.encode(event) + "\n"
            guard fputs(line, file) >= 0 else { throw Bench.Failure(description: "cannot write \(path)") }
        }
    }

    /// What a write command's policy does after appending: load the state and store a snapshot when due.
    static func snapshotByPolicy(path: String) throws {
        let log = try SQLiteEventLog.openForWriting(path: path, now: 0)
        let loaded = try StateLoader.load(log: log, snapshots: log)
        if SnapshotPolicy.standard.shouldSnapshot(position: loaded.model.position, base: loaded.base) {
            try SnapshotWriter.write(loaded.folded, log: log, to: log, now: loaded.folded.latestRecordedAt)
        }
    }
}
