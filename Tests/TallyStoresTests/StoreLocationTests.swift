import Testing
import TallyPostgres
import TallyStores

@Suite("Store locations and URIs")
struct StoreLocationTests {
    @Test("--db values: postgresql:// and postgres:// URIs (any case) are server logs, everything else a file path")
    func parsing() {
        #expect(StoreLocation("postgresql://u@h/db") == .postgres(uri: "postgresql://u@h/db"))
        #expect(StoreLocation("POSTGRES://h/db") == .postgres(uri: "POSTGRES://h/db"))
        #expect(StoreLocation("/home/a/tally.db") == .file(path: "/home/a/tally.db"))
        #expect(StoreLocation("postgresql.db") == .file(path: "postgresql.db"))
        #expect(StoreLocation("postgresql://h/db").isShared && !StoreLocation("x.db").isShared)
    }

    @Test("a password is never shown, wherever the URI carries it", arguments: [
        ("postgresql://alice:s3cret@db.example.org:5432/team?sslmode=require", "postgresql://alice:***@db.example.org:5432/team?sslmode=require"),
        ("postgres://alice:p%40ss@host/db", "postgres://alice:***@host/db"),
        ("postgresql://alice@host/db?password=s3cret&sslmode=require", "postgresql://alice@host/db?password=***&sslmode=require"),
        ("postgresql://host/db?sslmode=require&PASSWORD=s3cret", "postgresql://host/db?sslmode=require&password=***"),
        ("postgresql://alice@host:5432/db", "postgresql://alice@host:5432/db"),
        ("postgresql://:s3cret@host/db", "postgresql://:***@host/db"),
        ("postgresql:///db?host=/run/postgresql", "postgresql:///db?host=/run/postgresql"),
    ])
    func redaction(uri: String, shown: String) {
        #expect(PostgresURI.redacted(uri) == shown)
        #expect(StoreLocation(uri).display == shown)
        #expect(!shown.contains("s3cret"))
    }
}
