import Foundation
import Testing
@testable import TallySQLite
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// The content-addressed store of original activity files (migration 0003), on real files.
@Suite("SQLite blob store")
struct BlobStoreTests {
    let directory = TemporaryDirectory()

    static func blob(_ text: String, encoding: BlobEncoding = .identity) -> Blob {
        Blob(sha256: SHA256.hex(SHA256.digest(Array(text.utf8))), encoding: encoding, bytes: Array(text.utf8))
    }

    @Test("a blob put inside a write that rolls back is gone with the events; UPDATE is refused")
    func transactional() throws {
        let path = directory.path("rollback.db")
        let log = try SQLiteEventLog.openForWriting(path: path, now: 1)
        struct Abort: Error {}
        #expect(throws: Abort.self) {
            try log.write {
                try log.putBlob(Self.blob("kept?"))
                throw Abort()
            }
        }
        #expect(try log.blobNames().isEmpty)
        try log.putBlob(Self.blob("kept"))
        let connection = try Connection(path: path, access: .readWrite)
        #expect(throws: SQLiteError.self) { try connection.execute("UPDATE blobs SET body = x'00'") }
    }

    @Test("a database from before migration 0003 reads as having no blobs, and a write migrates it")
    func olderFile() throws {
        let path = directory.path("old.db")
        let connection = try Connection(path: path, access: .readWrite)
        let first = try #require(Migration.embedded.first)
        try connection.execute(first.sql)
        try connection.execute("CREATE TABLE schema_migrations(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)")
        try connection.execute("INSERT INTO schema_migrations VALUES (1, '\(first.name)', 0)")
        connection.close()
        let reader = try #require(try SQLiteEventLog.openForReading(path: path))
        #expect(try reader.blobNames().isEmpty && reader.blob(String(repeating: "a", count: 64)) == nil)
        let writer = try SQLiteEventLog.openForWriting(path: path, now: 2)
        try writer.putBlob(Self.blob("now"))
        #expect(try writer.blobNames().count == 1)
    }
}
