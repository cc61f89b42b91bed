import Testing
import TallySQLite
import TallyDomain
import TallyTestSupport

@Suite("SQLite event log: the fold's scan")
struct FoldScanTests {
    let directory = TemporaryDirectory()

    struct Row: Equatable {
        var seq: Int64, stream: String, version: Int, type: String, schema: Int, recordedAt: Int64, data: String
    }

    @Test("scanForFold hands over every row as scan reads it: stream bytes, type names (every type, and unknown ones), payload")
    func foldRowsMatchScan() throws {
        let log = try SQLiteEventLog.openForWriting(path: directory.path("fold.db"), now: 0)
        var generator = LogGenerator(seed: 5)
        var events = generator.events(400)
        // Types the catalog does not know, with names of the same length as known ones and more
        // distinct names than the scan remembers, and stream ids that are not UUIDs.
        for index in stride(from: 3, to: events.count, by: 7) {
            events[index].type = index % 2 == 0 ? "todo.creatEd" : "custom.type.\(index)"
            events[index].stream = "legacy-\(index)"
        }
        try log.write { try log.append(events) }
        var expected: [Row] = []
        try log.scan(after: 0, through: nil) {
            expected.append(Row(seq: $0.seq, stream: $0.stream, version: $0.version, type: $0.type, schema: $0.schema, recordedAt: $0.recordedAt, data: $0.data))
        }
        var folded: [Row] = []
        try log.scanForFold(after: 0, through: nil) { row in
            folded.append(Row(
                seq: row.seq, stream: String(decoding: row.stream, as: UTF8.self), version: row.version, type: row.type,
                schema: row.schema, recordedAt: row.recordedAt, data: String(decoding: row.data, as: UTF8.self)
            ))
        }
        #expect(expected.count == events.count)
        #expect(folded == expected)
        #expect(Set(folded.map(\.type)).count > 40)
    }
}
