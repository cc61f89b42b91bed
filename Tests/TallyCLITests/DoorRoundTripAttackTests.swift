import Foundation
import Testing
import TallyDomain
import TallyTestSupport

/// What any door accepts, export and import restore: a store built by a random mix of `add`,
/// `edit`, `done`, `record add`, `record edit`, `import` of a todo.txt file and `record import` of
/// generated hostile files, with values at and past every limit, and of events an earlier version
/// stored with figures past today's limits (`LegacyValues`), exports; that export imports into an
/// empty store, which exports the same bytes.
@Suite("every door's store survives export and import")
struct DoorRoundTripAttackTests {
    /// Values at and past the limits, for the commands' options.
    static let titles = ["Plain", String(repeating: "t", count: 500), String(repeating: "t", count: 501), "Čaj ☕ 🏃", " padded ", "tab\tinside", "e\u{301}"]
    static let dues = ["9999-12-31 23:59", "9999-12-31", "0001-01-01", "0001-01-01 00:30", "tomorrow", "2026-12-01T10:00+14:00", "in 3 days"]
    static let durations = ["1s", "168h", "168h1s", "0", "45m", "99999h"]
    static let distances = ["0km", "1000km", "1000.1km", "5km", "0.05m", "621.4mi"]
    static let dates = ["0001-01-01", "2026-11-22", "2026-11-23", "9999-12-31", "yesterday"]
    static let tags = ["+a", "+" + String(repeating: "x", count: 32), "+" + String(repeating: "x", count: 33), "+ünï"]

    @Test("random mixes of every door, in zones east and west of Greenwich: the export imports and exports the same bytes")
    func roundTrip() throws {
        let rounds = AttackScale.count(short: 2, full: 24)
        var random = SeededRandom(seed: 5)
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        for round in 0..<rounds {
            let zone = ["America/New_York", "Pacific/Kiritimati", "UTC", "Pacific/Pago_Pago"][round % 4]
            let tally = TallyRunner(now: "2026-11-21T12:00:00Z", zone: zone)
            var files = HostileActivityFiles(SeededRandom(seed: UInt64(round) + 100))
            var legacy = LegacyPayloads(seed: UInt64(round) + 200)
            var legacyStreams = 0
            var log: [String] = []
            for step in 0..<AttackScale.count(short: 30, full: 80) {
                let arguments: [String]
                if random.next() % 9 == 0 {
                    // The door of an earlier version: events stored with its limits, appended raw.
                    try RawEvents.append(RawEvents.legacy(&legacy, count: 2, first: round * 1000 + legacyStreams), to: tally)
                    legacyStreams += 2
                    log.append("legacy events")
                    continue
                }
                switch random.next() % 8 {
                case 0, 1: arguments = ["add", pick(Self.titles), "--due", pick(Self.dues), pick(Self.tags)]
                case 2: arguments = ["edit", "1", "--due", pick(Self.dues), "--wait", pick(Self.dues)]
                case 3: arguments = ["done", "1"]
                case 4: arguments = ["record", "add", pick(Self.titles), "--category", "running", "--duration", pick(Self.durations),
                                     "--distance", pick(Self.distances), "--date", pick(Self.dates)]
                case 5: arguments = ["record", "edit", "1", "--duration", pick(Self.durations), "--distance", pick(Self.distances), "--date", pick(Self.dates)]
                case 6:
                    let path = tally.directory.path("todo-\(step).txt")
                    let lines = (0..<3).map { _ in "(A) \(pick(Self.titles)) due:\(pick(["9999-12-31", "2026-02-30", "0001-01-01", "2026-12-01"])) +p @c" }
                    try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
                    arguments = ["import", path]
                default:
                    let folder = tally.directory.path("files-\(step)")
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    for index in 0..<4 {
                        let file = files.any()
                        try Data(file.bytes).write(to: URL(fileURLWithPath: "\(folder)/\(index)-\(file.name)"))
                    }
                    arguments = ["record", "import", folder]
                }
                let result = tally.run(arguments)
                log.append("\(arguments.prefix(3).joined(separator: " ")) -> \(result.status)")
                #expect([0, 1, 64, 65].contains(result.status), "round \(round) step \(step): \(arguments) exited \(result.status): \(result.stderr)")
            }
            let exported = tally.run("export")
            #expect(exported.status == 0, "round \(round): \(exported.stderr)")
            let copy = TallyRunner(now: "2026-11-21T12:00:00Z", zone: zone)
            let path = copy.directory.path("export.jsonl")
            try exported.stdout.write(toFile: path, atomically: true, encoding: .utf8)
            let imported = copy.run("import", path)
            #expect(imported.status == 0, "round \(round) in \(zone): the export does not import: \(imported.stderr)\n\(log.joined(separator: "\n"))")
            #expect(copy.run("export").stdout == exported.stdout, "round \(round): the export changes on import")
            #expect(tally.run("verify").status == 0)
            #expect(tally.run("rebuild").status == 0)
        }
    }
}
