import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally load [--from WHEN] [--to WHEN] [--as-of WHEN|@SEQ]`
enum LoadCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "load",
        abstract: "Training load per day: fitness (42-day), fatigue (7-day) and form, as a chart and a table.",
        discussion: """
            Each activity's load is Banister's TRIMP from its average heart rate (with the resting and maximum heart \
            rates in force on its day), else its Training Stress Score from power and the FTP in force, else its effort \
            (record add --effort, or record edit --effort after the fact) times its minutes. Activities with none of these \
            have no load and are counted as such. \
            Fitness and fatigue are the 42- and 7-day exponentially weighted loads; form is yesterday's fitness minus \
            yesterday's fatigue. Without --from the last six weeks are shown.
            """,
        options: [
            OptionSpec(name: "from", valueName: "WHEN", help: "The first day shown (default six weeks before --to)."),
            OptionSpec(name: "to", valueName: "WHEN", help: "The last day shown (default today)."),
            TodoOptions.asOf,
        ],
        examples: [
            CommandExample(command: "tally load", explanation: "Fitness, fatigue and form over the last six weeks."),
            CommandExample(command: "tally --json load --from 2026-01-01", explanation: "Every day of this year, for a program."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let bound = try context.asOfBound(command.value("as-of"))
        let state = try context.readState(try context.readLog(), bound: bound)
        let today = LocalDate.containing(context.now, in: context.zone)
        let to = try command.value("to").map { try day($0, context) } ?? today
        let from = try command.value("from").map { try day($0, context) } ?? to.adding(days: -41)
        guard from <= to else { throw DomainError.invalid(.athleteConflict("--from \(from) is after --to \(to)")) }
        let (loads, unscored) = TrainingLoad.loads(state, zone: context.zone)
        let days = TrainingLoad.series(loads, from: from, through: to)
        let shown = loads.filter { $0.day >= from && $0.day <= to }
        let unscoredShown = unscored.filter { let day = LocalDate.containing($0.date, in: context.zone); return day >= from && day <= to }
        if context.json {
            func number(_ value: Double) -> JSON { .double((value * 10).rounded() / 10) }
            context.printJSON(.object([
                "from": .string(from.description), "to": .string(to.description),
                "days": .array(days.map { day in .object([
                    "date": .string(day.date.description), "load": number(day.load), "fitness": number(day.fitness),
                    "fatigue": number(day.fatigue), "form": number(day.form),
                ]) }),
                "activities": .array(shown.map { load in .object([
                    "id": .string(load.recordID), "number": .int(Int64(load.number)), "date": .string(load.day.description),
                    "load": number(load.load), "method": .string(load.method.rawValue),
                ]) }),
                "unscored": .array(unscoredShown.map { .object(["id": .string($0.id), "number": .int(Int64($0.number))]) }),
            ]))
            return
        }
        let catalog = context.catalog
        guard !days.isEmpty, days.contains(where: { $0.load > 0 || $0.fitness > 0.05 }) else {
            context.console.line(catalog.text(.loadEmpty))
            if !unscoredShown.isEmpty { context.console.line(unscoredLines(unscoredShown, catalog: catalog).joined(separator: "\n")) }
            return
        }
        var lines = chart(days, context: context)
        lines.append("")
        let table = Table(columns: [
            Table.Column(title: catalog.text(.columnDate)), Table.Column(title: catalog.text(.columnLoad), alignRight: true),
            Table.Column(title: catalog.text(.columnFitness), alignRight: true), Table.Column(title: catalog.text(.columnFatigue), alignRight: true),
            Table.Column(title: catalog.text(.columnForm), alignRight: true),
        ], rows: days.map { day in
            [day.date.description, day.load > 0 ? whole(day.load) : "", whole(day.fitness), whole(day.fatigue), (day.form >= 0.5 ? "+" : "") + whole(day.form)]
        })
        lines.append(table.render(maxWidth: context.settings.width))
        if !unscoredShown.isEmpty {
            lines.append("")
            lines += unscoredLines(unscoredShown, catalog: catalog)
        }
        context.console.line(lines.joined(separator: "\n"))
    }

    /// How many activities have no load, how many of them only lack the athlete's settings, and
    /// how many had neither heart rate nor power (an effort given after the fact is their load).
    static func unscoredLines(_ unscored: [Record], catalog: Catalog) -> [String] {
        let measured = unscored.filter(TrainingLoad.measured).count
        var lines = [catalog.plural(.loadUnscored, count: unscored.count)]
        if measured > 0 { lines.append(catalog.plural(.loadUnscoredSettings, count: measured)) }
        if unscored.count > measured { lines.append(catalog.plural(.loadUnscoredEffort, count: unscored.count - measured)) }
        return lines
    }

    static func whole(_ value: Double) -> String { String(Int(value.rounded())) }

    /// A day: a date, or the day of an instant (`-6w`, `yesterday`).
    static func day(_ raw: String, _ context: CLIContext) throws -> LocalDate {
        let when: When
        do {
            when = try When.parse(raw, now: context.now, zone: context.zone, lookingBack: true)
        } catch {
            throw DomainError.invalid(.value(error))
        }
        switch when {
        case .date(let date): return date
        case .instant(let ms): return LocalDate.containing(ms, in: context.zone)
        // (`When.parse` refuses a log position unless asked to allow one.)
        case .logPosition: return LocalDate.containing(context.now, in: context.zone)
        }
    }

    /// Fitness as columns of blocks and fatigue as a mark, one column a day (the latest days when they do not fit), 8 rows high.
    static func chart(_ days: [LoadDay], context: CLIContext) -> [String] {
        let unicode = context.settings.unicode
        let width = max(10, (context.settings.width ?? 80) - 8)
        let shown = Array(days.suffix(width))
        let top = max(1, shown.map { max($0.fitness, $0.fatigue) }.max() ?? 1)
        let height = 8
        var rows: [String] = []
        for row in stride(from: height, through: 1, by: -1) {
            let level = top * Double(row) / Double(height)
            let below = top * Double(row - 1) / Double(height)
            var line = ""
            for day in shown {
                if day.fatigue > below, day.fatigue <= level + 1e-9 {
                    line += unicode ? "•" : "*"
                } else if day.fitness > below + (level - below) / 2 {
                    line += unicode ? "█" : "#"
                } else {
                    line += " "
                }
            }
            let label = row == height ? whole(top) : (row == 1 ? "0" : "")
            rows.append(String(repeating: " ", count: max(0, 5 - label.count)) + label + " " + (unicode ? "│" : "|") + line)
        }
        rows.append("      " + (shown.first?.date.description ?? "") + String(repeating: " ", count: max(1, shown.count - 20)) + (shown.last?.date.description ?? ""))
        rows.append(context.catalog.text(.loadLegend, ["fitness": unicode ? "█" : "#", "fatigue": unicode ? "•" : "*"]))
        return rows
    }
}
