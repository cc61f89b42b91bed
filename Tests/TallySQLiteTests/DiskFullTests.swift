import CSQLite
import Foundation
import Testing
@testable import TallySQLite
import TallyDomain
import TallyTestSupport

@Suite("A full disk, in the SQLite event log")
struct DiskFullTests {
    let directory = TemporaryDirectory()

    /// Events too large to fit in the pages a small log has.
    static func large(_ count: Int, _ factory: inout EventFactory) -> [EventEnvelope] {
        (0..<count).map { factory.make(.todoCreated(TodoFields(title: "large \($0)", note: String(repeating: "x", count: 2000))), stream: "large-\($0)") }
    }

    /// The log as a fresh connection reads it from the file: its head, and whether its chain verifies.
    func onDisk(_ path: String) throws -> (head: LogHead, intact: Bool) {
        let log = try #require(try SQLiteEventLog.openForReading(path: path))
        var verifier = LogVerifier()
        try log.scan(after: 0, through: nil) { verifier.check($0) }
        return (try log.head(), verifier.isIntact)
    }

    @Test("an append that finds the disk full fails with a typed error and leaves the log as it was; with room again the same events go in")
    func append() throws {
        let path = directory.path("append.db")
        let log = try SQLiteEventLog.openForWriting(path: path, now: 1)
        var factory = EventFactory()
        let small = (0..<10).map { factory.make(.todoCreated(TodoFields(title: "todo \($0)")), stream: "s\($0)") }
        try log.write { try log.append(small) }
        let head = try log.head()
        try log.capGrowth()

        let large = Self.large(50, &factory)
        #expect(throws: EventLogError.full) { try log.write { try log.append(large) } }
        #expect(try log.head() == head)
        #expect(try log.eventCount() == 10)
        #expect(try onDisk(path) == (head, true))

        try log.capGrowth(extraPages: nil)
        try log.write { try log.append(large) }
        #expect(try log.head() == LogHead(seq: 60, hash: large.last!.hash))
        #expect(try onDisk(path) == (try log.head(), true))
    }

    @Test("a snapshot that finds the disk full fails with a typed error and leaves the stored snapshots as they were")
    func snapshot() throws {
        let path = directory.path("snapshot.db")
        let log = try SQLiteEventLog.openForWriting(path: path, now: 1)
        var factory = EventFactory()
        try log.write { try log.append(Self.large(5, &factory)) }
        let first = SnapshotInfo(seq: 5, format: 1, reducerVersion: 1, createdAt: 1, checksum: "first", size: 3, chunkSize: 1 << 16)
        try log.saveSnapshot(first, body: [1, 2, 3], chunkSums: [1], keep: 2)
        try log.capGrowth()

        let body = [UInt8](repeating: 7, count: 200_000)
        let second = SnapshotInfo(seq: 5, format: 1, reducerVersion: 1, createdAt: 2, checksum: "second", size: body.count, chunkSize: 1 << 16)
        #expect(throws: EventLogError.full) { try log.saveSnapshot(second, body: body, chunkSums: [2], keep: 1) }
        #expect(try log.snapshots() == [first])
        #expect(try onDisk(path).intact)

        try log.capGrowth(extraPages: nil)
        try log.saveSnapshot(second, body: body, chunkSums: [2], keep: 1)
        #expect(try log.snapshots() == [second])
    }
}

@Suite("SQLite errors that mean a full disk")
struct DiskFullMappingTests {
    @Test("SQLITE_FULL, and an I/O error with ENOSPC or EDQUOT behind it, are a full disk; other I/O errors are not")
    func mapping() {
        #expect(StorageErrors.map(SQLiteError(code: SQLITE_FULL, message: "database or disk is full")) == .full)
        // SQLITE_IOERR_SHMSIZE: growing the -shm index failed.
        let shm = SQLiteError(code: SQLITE_IOERR, extendedCode: SQLITE_IOERR | (19 << 8), message: "disk I/O error", systemErrno: ENOSPC)
        #expect(StorageErrors.map(shm) == .full)
        #expect(StorageErrors.map(SQLiteError(code: SQLITE_IOERR, message: "disk I/O error", systemErrno: EDQUOT)) == .full)
        #expect(StorageErrors.map(SQLiteError(code: SQLITE_IOERR, message: "disk I/O error", systemErrno: EIO)) != .full)
    }
}
