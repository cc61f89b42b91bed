import Testing
import TallyEngine
import TallyDomain
@testable import TallyPostgres
import TallyTestSupport

/// Which of the log's functions pin their search path (migration 12): every SECURITY DEFINER
/// function and every trigger function does, so no caller's path can put its own functions in
/// theirs; the pure checks they run do not (a setting per call costs, and blocks inlining), which
/// is safe only while no role but the owner may call them.
@Suite("PostgreSQL function settings", .enabled(if: PostgresTestServer.isEnabled))
struct PostgresFunctionSettingsTests {
    let server: PostgresTestServer

    init() throws {
        server = try PostgresTestServer.shared()
    }

    @Test("definer and trigger functions pin their search path; unpinned checks are the owner's alone")
    func pinning() throws {
        let uri = try server.makeDatabase()
        try PostgresEventLog.openForWriting(conninfo: uri, now: 1, lockTimeout: 30_000).close()
        let database = PostgresTestServer.databaseName(uri)
        let functions = "FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace AND p.proname LIKE 'tally\\_%'"
        let unpinnedEntries = try server.psql("""
            SELECT coalesce(string_agg(p.proname, ',' ORDER BY p.proname), '') \(functions)
              AND (p.prosecdef OR p.prorettype = 'trigger'::regtype)
              AND p.proname <> 'tally_blobs_reject_update'
              AND NOT coalesce(EXISTS (SELECT 1 FROM unnest(p.proconfig) AS c WHERE c LIKE 'search\\_path=%'), false)
            """, database: database)
        #expect(unpinnedEntries.isEmpty, "entry points without a pinned search path: \(unpinnedEntries)")
        let unpinnedChecks = try server.psql("""
            SELECT count(*) \(functions) AND p.proconfig IS NULL AND NOT p.prosecdef AND p.prorettype <> 'trigger'::regtype
            """, database: database)
        #expect((Int(unpinnedChecks) ?? 0) >= 10, "the pure checks run without a setting per call (\(unpinnedChecks))")
        let callable = try server.psql("""
            SELECT coalesce(string_agg(p.proname, ',' ORDER BY p.proname), '') \(functions)
              AND NOT p.prosecdef AND has_function_privilege('public', p.oid, 'EXECUTE')
            """, database: database)
        #expect(callable.isEmpty, "checks any role may call: \(callable)")
    }

    @Test("a writer's own search path cannot replace a check the insert trigger runs: a bad title is still refused")
    func shadowedCheck() throws {
        let uri = try server.makeDatabase()
        try PostgresEventLog.openForWriting(conninfo: uri, now: 1, lockTimeout: 30_000).close()
        let database = PostgresTestServer.databaseName(uri)
        let writer = try server.makeRole("shadowwriter", grants: PostgresTestServer.Grants.writer + ["CREATE SCHEMA shadow AUTHORIZATION ROLE"], database: database)
        func insert(_ event: EventEnvelope) -> String {
            """
            CREATE OR REPLACE FUNCTION shadow.tally_payload_problem(TEXT, JSONB) RETURNS TEXT LANGUAGE sql AS $$ SELECT NULL::text $$;
            CREATE OR REPLACE FUNCTION shadow.tally_text_ok(JSONB, INTEGER, BOOLEAN, BOOLEAN) RETURNS BOOLEAN LANGUAGE sql AS $$ SELECT true $$;
            SET search_path = shadow, public;
            INSERT INTO events(seq, id, stream, version, type, schema, data, recorded_at, actor, command, hash) VALUES (\(event.seq), '\(event.id)', '\(event.stream)', \(event.version), '\(event.type)', \(event.schema), '\(event.data.replacingOccurrences(of: "'", with: "''"))', \(event.recordedAt), '\(event.actor)', '\(event.command)', '\(event.hash)');
            """
        }
        var made = BatchEvents.make(1, streams: 1)
        made[0].data = made[0].data.replacingOccurrences(of: "todo 0", with: "todo\\u00070")
        made = BatchEvents.rechained(made, after: .empty)
        #expect {
            try server.psql(insert(made[0]), database: database, user: writer.name, password: writer.password)
        } throws: { error in
            "\(error)".contains("field 'title' is not 1-500 characters without control characters")
        }
        #expect(try server.psql("SELECT count(*) FROM events", database: database) == "0")
        // The same statement with a good title goes in: the refusal above was the payload's alone.
        let good = BatchEvents.make(1, streams: 1)
        _ = try server.psql(insert(good[0]), database: database, user: writer.name, password: writer.password)
        #expect(try server.psql("SELECT count(*) FROM events", database: database) == "1")
    }
}
