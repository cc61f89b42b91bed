import Testing
@testable import TallyEngine
import TallyDomain
@testable import TallyEssentials

/// The data behind `tally report`: the period, the burndown fold over todo events, volume buckets.
@Suite("Report projections")
struct ReportProjectionTests {
    static let zone = Zone.utc
    static func at(_ text: String) -> Int64 { Timestamp.parse(text)! }
    static func day(_ text: String) -> LocalDate { LocalDate.parse(text)! }

    @Test("the period: 52 weeks to today by default, --from and --to as whole days, weeks up to two years then months")
    func period() throws {
        let now = Self.at("2026-11-21T12:00:00Z")
        let standard = try TrainingReportProjection.period(from: nil, to: nil, now: now, zone: Self.zone)
        #expect(standard == ReportPeriod(first: Self.day("2025-11-22"), last: Self.day("2026-11-21")))
        #expect(standard.dayCount == 365 && standard.grouping == .week)
        #expect(standard.buckets.first?.label == "2025-W47" && standard.buckets.last?.label == "2026-W47")
        let relative = try TrainingReportProjection.period(from: "-6d", to: "yesterday", now: now, zone: Self.zone)
        #expect(relative == ReportPeriod(first: Self.day("2026-11-15"), last: Self.day("2026-11-20")))
        let long = ReportPeriod(first: Self.day("2010-03-15"), last: Self.day("2022-12-31"))
        #expect(long.grouping == .month)
        #expect(long.buckets.map(\.label).prefix(2) == ["2010-03", "2010-04"] && long.buckets.count == 154)
        #expect(long.buckets.last?.first == Self.day("2022-12-01"))
        #expect(throws: DomainError.self) { try TrainingReportProjection.period(from: "@3", to: nil, now: now, zone: Self.zone) }
    }

    @Test("the burndown counts a todo once, as open or done, while it is not deleted; completions fall in their week")
    func burndown() {
        let period = ReportPeriod(first: Self.day("2026-11-02"), last: Self.day("2026-11-10"))
        func change(_ stream: String, _ type: String, _ time: String, _ seq: Int64) -> TodoReportProjection.Change {
            .init(stream: stream, type: type, at: Self.at(time), seq: seq)
        }
        let changes = [
            change("a", "todo.created", "2026-10-30T10:00:00Z", 1),
            change("b", "todo.created", "2026-11-03T10:00:00Z", 2),
            change("a", "todo.completed", "2026-11-04T10:00:00Z", 3),
            change("a", "todo.reopened", "2026-11-05T10:00:00Z", 4),
            change("a", "todo.completed", "2026-11-09T10:00:00Z", 7),
            change("b", "todo.deleted", "2026-11-06T10:00:00Z", 5),
            change("b", "todo.restored", "2026-11-07T10:00:00Z", 6),
            change("b", "todo.edited", "2026-11-07T11:00:00Z", 8),
            // An imported completion that kept an earlier time than its seq says: ordered by time.
            change("c", "todo.created", "2026-11-02T09:00:00Z", 9),
            change("c", "todo.completed", "2026-11-02T10:00:00Z", 10),
            // Completing a completed todo again changes nothing.
            change("c", "todo.completed", "2026-11-03T10:00:00Z", 11),
        ]
        let report = TodoReportProjection.run(changes: changes.reversed(), period: period, on: ReadModel(), now: Self.at("2026-11-10T12:00:00Z"), zone: Self.zone)
        #expect(report.days.map(\.open) == [1, 2, 1, 2, 1, 2, 2, 1, 1])
        #expect(report.days.map(\.done) == [1, 1, 2, 1, 1, 1, 1, 2, 2])
        // Weeks 45 (2 to 8 November) and 46 (9 and 10).
        #expect(report.donePerBucket == [2, 1])
    }
}
