#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEngine
import TallyDomain
import TallyEssentials

/// The `stats --streaks` and `stats --ytd` views.
enum StatsViews {
    static func run(streaks: Bool, categories: [String], state: ReadModel, bound: Replayer.Bound?, _ context: CLIContext) throws {
        // "Now" of a past view is the moment it looks at.
        var now = context.now
        if case .instant(let instant)? = bound { now = min(now, instant) }
        if streaks {
            let rows = StreakProjection.run(categories: categories, on: state, now: now, zone: context.zone)
            if context.json {
                context.printJSON(.object(["streaks": .array(rows.map(json))]))
            } else {
                context.console.line(render(rows, context))
            }
            return
        }
        let ytd = YearToDateProjection.run(categories: categories, on: state, now: now, zone: context.zone)
        if context.json {
            context.printJSON(json(ytd, now: now, zone: context.zone))
        } else {
            context.console.line(render(ytd, now: now, context))
        }
    }

    static func json(_ streaks: Streaks) -> JSON {
        .object([
            "category": streaks.category.map { .string($0) } ?? .null,
            "activeDays": .int(Int64(streaks.activeDays)),
            "currentDays": .int(Int64(streaks.currentDays)),
            "longestDays": .int(Int64(streaks.longestDays)),
            "longestDaysEnd": streaks.longestDaysEnd.map { .string($0.description) } ?? .null,
            "currentWeeks": .int(Int64(streaks.currentWeeks)),
            "longestWeeks": .int(Int64(streaks.longestWeeks)),
            "longestWeeksEnd": streaks.longestWeeksEnd.map { .string($0) } ?? .null,
        ])
    }

    static func render(_ rows: [Streaks], _ context: CLIContext) -> String {
        let catalog = context.catalog
        guard let all = rows.first, all.activeDays > 0 else { return catalog.text(.statsEmpty) }
        let columns = [
            Table.Column(title: catalog.text(.columnCategory)),
            Table.Column(title: catalog.text(.columnCurrentDays), alignRight: true),
            Table.Column(title: catalog.text(.columnLongestDays), alignRight: true),
            Table.Column(title: catalog.text(.columnCurrentWeeks), alignRight: true),
            Table.Column(title: catalog.text(.columnLongestWeeks), alignRight: true),
            Table.Column(title: catalog.text(.columnActiveDays), alignRight: true),
        ]
        let body = rows.map { row in
            [
                row.category ?? catalog.text(.streaksAll), String(row.currentDays),
                row.longestDaysEnd.map { "\(row.longestDays) (\($0))" } ?? String(row.longestDays),
                String(row.currentWeeks), row.longestWeeksEnd.map { "\(row.longestWeeks) (\($0))" } ?? String(row.longestWeeks),
                String(row.activeDays),
            ]
        }
        return Table(columns: columns, rows: body).render(maxWidth: context.settings.width)
    }

    static func json(_ ytd: YearToDate, now: Int64, zone: Zone) -> JSON {
        func totals(_ totals: StatsTotals) -> JSON {
            .object([
                "count": .int(Int64(totals.count)), "durationSeconds": .int(Int64(totals.durationSeconds)),
                "distanceMeters": .double(totals.distanceMeters),
            ])
        }
        return .object([
            "year": .int(Int64(ytd.year)),
            "through": .string(Timestamp.format(now)),
            "current": totals(ytd.current),
            "previous": totals(ytd.previous),
            "categories": .array(ytd.byCategory.map { row in
                .object(["category": .string(row.category), "current": totals(row.current), "previous": totals(row.previous)])
            }),
        ])
    }

    /// `+12%`, `-3%`, or empty when last year had nothing to compare with.
    static func change(_ now: Double, _ before: Double) -> String {
        guard before > 0 else { return "" }
        let percent = Int(((now - before) / before * 100).rounded())
        return percent > 0 ? "+\(percent)%" : "\(percent)%"
    }

    static func render(_ ytd: YearToDate, now: Int64, _ context: CLIContext) -> String {
        let catalog = context.catalog
        guard ytd.current.count + ytd.previous.count > 0 else { return catalog.text(.statsEmpty) }
        let today = LocalDate.containing(now, in: context.zone)
        let dayText = ValueText.monthDay(today)
        let title = catalog.text(.ytdTitle, ["year": String(ytd.year), "date": dayText, "previous": String(ytd.year - 1), "previousDate": dayText])
        let columns = [
            Table.Column(title: catalog.text(.columnCategory)),
            Table.Column(title: "\(ytd.year) " + catalog.text(.columnCount), alignRight: true),
            Table.Column(title: "\(ytd.year - 1) " + catalog.text(.columnCount), alignRight: true),
            Table.Column(title: "\(ytd.year) " + catalog.text(.columnTime), alignRight: true),
            Table.Column(title: "\(ytd.year - 1) " + catalog.text(.columnTime), alignRight: true),
            Table.Column(title: "\(ytd.year) " + catalog.text(.columnDistance), alignRight: true),
            Table.Column(title: "\(ytd.year - 1) " + catalog.text(.columnDistance), alignRight: true),
            Table.Column(title: catalog.text(.columnChange), alignRight: true),
        ]
        func row(_ label: String, _ current: StatsTotals, _ previous: StatsTotals) -> [String] {
            let byDistance = current.distanceMeters > 0 || previous.distanceMeters > 0
            return [
                label, String(current.count), String(previous.count),
                ActivityDuration.format(current.durationSeconds), ActivityDuration.format(previous.durationSeconds),
                Distance.format(current.distanceMeters), Distance.format(previous.distanceMeters),
                byDistance ? change(current.distanceMeters, previous.distanceMeters)
                    : change(Double(current.durationSeconds), Double(previous.durationSeconds)),
            ]
        }
        var rows = ytd.byCategory.map { row($0.category, $0.current, $0.previous) }
        rows.append(row(catalog.text(.statsTotal), ytd.current, ytd.previous))
        return title + "\n\n" + Table(columns: columns, rows: rows).render(maxWidth: context.settings.width)
    }
}

/// Small text forms of values for headings.
enum ValueText {
    /// `11-23`: month and day.
    static func monthDay(_ date: LocalDate) -> String {
        (date.month < 10 ? "0" : "") + "\(date.month)-" + (date.day < 10 ? "0" : "") + "\(date.day)"
    }
}
