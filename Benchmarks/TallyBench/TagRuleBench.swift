import Foundation
import TallyPostgres
import TallyTestHarness

/// The cost of migration 13's tag rule (`tally_tags_ok` as explicit code point ranges, the project
/// check beside it) against the rule before it: `tally import --from todotxt` of 20,000 todos, each
/// with an ASCII tag and a tag of another script the old rule also took (Czech, Greek, Cyrillic,
/// CJK, Hangul, ...), into fresh databases of a throw-away cluster, alternating the rule of
/// migration 13 with the rules of migrations 6 and 10 put back (`CREATE OR REPLACE` from their own
/// text); and, with the new rule only, the same file with tags the old rule refused (Hindi,
/// Georgian, Ethiopic, ...). `tally-bench --tags`.
extension Bench {
    /// The todo.txt file of `count` todos, two tags each: `+ASCII` and `@` one of `others`.
    func tagInput(_ name: String, count: Int, others: [String]) throws -> String {
        let path = options.cache + "/work/\(name)-\(count).txt"
        let ascii = ["work", "home", "shop", "errand", "call", "later", "urgent", "q4-plan", "team_a", "x1"]
        var lines: [String] = []
        lines.reserveCapacity(count)
        for index in 0 ..< count {
            lines.append("Task \(index) +\(ascii[index % ascii.count]) @\(others[(index * 7) % others.count])")
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The definitions of `tally_tags_ok` (migration 6) and `tally_todo_links_problem` (migration 10), replacing today's.
    static func ruleBeforeMigration13() throws -> String {
        func definition(_ name: String, in version: Int) throws -> String {
            guard let sql = PostgresMigration.all.first(where: { $0.version == version })?.sql,
                  let start = sql.range(of: "CREATE FUNCTION \(name)("),
                  let end = sql.range(of: "\n$$;", range: start.upperBound ..< sql.endIndex) else {
                throw BenchError("no \(name) in migration \(version)")
            }
            return "CREATE OR REPLACE FUNCTION \(name)(" + sql[start.upperBound ..< end.upperBound] + "\n"
        }
        return try definition("tally_tags_ok", in: 6) + definition("tally_todo_links_problem", in: 10)
    }

    func tagRuleRows() throws -> [Report.Row] {
        let server = try PostgresTestServer.startDedicated(durable: true)
        let count = profile.name == "smoke" ? 500 : 20_000
        let old = try tagInput("tags-old", count: count, others: ["práce", "účet", "žďár", "ελληνικά", "работа", "日本", "한국", "עברית", "งาน", "straße"])
        let new = try tagInput("tags-new", count: count, others: ["हिंदी", "ქართული", "հայերեն", "አማርኛ", "தமிழ்", "२०२६", "ϒ", "काम", "x²", "ἀθῆναι"])
        let one = try tagInput("tags-one", count: 1, others: ["work"])
        let before = try Self.ruleBeforeMigration13()
        var times: [String: [Double]] = [:]
        for run in 0 ..< max(3, profile.heavyRuns) {
            for (label, file, restore) in [("13", old, false), ("12", old, true), ("13 new scripts", new, false)] {
                note("tag rule: import of \(count) tagged todos, rule \(label), run \(run + 1) ...")
                let uri = try server.makeDatabase("tags")
                _ = try once(["import", "--from", "todotxt", one], database: uri)
                if restore { _ = try server.psql(before, database: PostgresTestServer.databaseName(uri)) }
                times[label, default: []].append(try once(["import", "--from", "todotxt", file], database: uri))
            }
        }
        let after = times["13"]?.median ?? 0
        let earlier = times["12"]?.median ?? 0
        return [
            .init(figure: "`tally import --from todotxt` of \(Report.count(count)) todos tagged in several scripts into PostgreSQL: tag rule of migration 13 ÷ before it",
                  target: "≤ 1.05",
                  measured: String(format: "%.2f (%.2f s ÷ %.2f s); tags the old rule refused %.2f s", after / earlier, after, earlier, times["13 new scripts"]?.median ?? 0),
                  pass: after <= earlier * 1.05),
        ]
    }
}
