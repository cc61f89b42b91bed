import Foundation

/// The shared log's rows of `make bench`, one per target of the shared-log table (import and push
/// into PostgreSQL, clones, empty syncs, concurrent writers, `add` and `list` on PostgreSQL against
/// SQLite, the 10M-event stores, `rebuild` on both), measured in the same run as the single-machine
/// rows by the benches that own them (`BatchAppendBench`, `ReadBench`, `PostgresBench`,
/// `ScaleBench`). A group that cannot be measured keeps its rows, each saying why.
extension Bench {
    func sharedLogRows() -> [Report.Row] {
        let server: Result<PostgresBench, Error> = profile.name == "smoke"
            ? .failure(BenchError("the smoke run starts no PostgreSQL server"))
            : Result { try PostgresBench(bench: self) }
        let large = Report.count(profile.large.events)
        let small = Report.count(profile.small.todos)
        let batch = group("batch appends", [
            ("`tally import` of \(large) events into PostgreSQL (batch appends), events/s", "≥ 100,000 and ≥ 1.0× SQLite"),
            ("`tally sync` pushing \(Report.count(batchPushEvents)) unpushed events to PostgreSQL (batch appends), events/s", "≥ 100,000"),
            ("`tally rebuild` of \(large) events, SQLite and PostgreSQL (alternated), events/s", "≥ 1,000,000 (SQLite), ≥ 500,000 (PostgreSQL)"),
            ("`tally export` of \(large) events, events/s", "≥ 200,000 (PostgreSQL)"),
        ]) { try batchAppendRows(makeDatabase: try server.get().makeDatabase) }
        let clone = Report.count(cloneSize.events)
        let read = group("read", [
            ("clone of a \(clone)-event shared log (a shared file) into an empty replica, events/s", "≥ 300,000"),
            ("clone of a \(clone)-event shared log (PostgreSQL) into an empty replica, events/s", "≥ 300,000"),
            ("sync with nothing to do, a shared file", "≤ 5 ms"),
            ("sync with nothing to do, PostgreSQL", "≤ 10 ms"),
            ("`tally list --limit 20`, \(small) todos: PostgreSQL ÷ SQLite (alternated)", "≤ 2"),
            ("`tally add`, \(small) todos: PostgreSQL ÷ SQLite (alternated)", "≤ 2"),
        ]) { try readRows(server: try server.get()) }
        let writers = group("concurrent writers", [
            ("single-event commands from 16 concurrent clients, events/s, a reader tailing `seq > cursor`", "≥ 10,000 (PostgreSQL)"),
        ]) { try server.get().writerRows() }
        let scale = group("10M-event stores", []) { try scaleRows(generate: false) }
        let fleet = profile.name == "smoke" ? [] : group("ten replicas", []) {
            try fleetRows(makeDatabase: try server.get().makeDatabase)
        }
        // The order of the targets' table: import, clones, push, empty syncs, writers, add and list, 10M, rebuild.
        var rows: [Report.Row] = Array(batch.prefix(1))
        rows += read.prefix(2)
        rows += batch.dropFirst().prefix(1)
        rows += read.dropFirst(2).prefix(2)
        rows += writers
        rows += read.dropFirst(4)
        rows += scale
        rows += fleet
        rows += batch.dropFirst(2)
        return rows
    }

    /// The rows `measure` returns, or `figures` saying why they were not measured when it throws.
    func group(_ name: String, _ figures: [(figure: String, target: String)], _ measure: () throws -> [Report.Row]) -> [Report.Row] {
        do {
            return try measure()
        } catch {
            note("\(name) not measured: \(error)")
            return Report.notMeasured(figures, "not measured: \(error)")
        }
    }
}

extension Report {
    /// Rows of figures left out of a run, each with `why` as its measurement.
    static func notMeasured(_ figures: [(figure: String, target: String)], _ why: String) -> [Row] {
        figures.map { Row(figure: $0.figure, target: $0.target, measured: why, pass: false, skipped: true) }
    }
}
