import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments

/// `tally athlete` — the athlete's dated settings.
enum AthleteGroup {
    static let spec = CommandSpec(
        name: "athlete",
        abstract: "The athlete's heart rates and FTP, as dated settings that analyses use day by day.",
        discussion: "Every change is an event with the day it applies from, so an old activity is analysed with the settings in force on its day.",
        examples: [
            CommandExample("tally athlete set --max-hr 190 --resting-hr 48 --threshold-hr 172 --ftp 250", "Set everything from today."),
            CommandExample("tally athlete show --as-of 2025-06-01", "The settings in force on 1 June 2025."),
        ]
    )
}

/// `tally athlete set [--max-hr N] [--resting-hr N] [--threshold-hr N] [--ftp W] [--hr-zones P,P,P,P] [--from DATE]`
enum AthleteSetCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "set",
        abstract: "Set heart rates, FTP or heart-rate zones from a day on.",
        discussion: """
            Only the values named change; the others stay as they were. From DATE on (default today) they are in force \
            until a later day sets them again. Heart rates in bpm (maximum 100-250, resting 25-120, threshold 80-250), \
            FTP in watts (30-1000). --hr-zones gives the upper bounds of zones 1-4 in percent of the threshold heart \
            rate (of the maximum when no threshold is set).
            """,
        options: [
            OptionSpec(name: "max-hr", valueName: "BPM", help: "Maximum heart rate."),
            OptionSpec(name: "resting-hr", valueName: "BPM", help: "Resting heart rate."),
            OptionSpec(name: "threshold-hr", valueName: "BPM", help: "Lactate threshold heart rate."),
            OptionSpec(name: "ftp", valueName: "WATTS", help: "Functional threshold power."),
            OptionSpec(name: "hr-zones", valueName: "P1,P2,P3,P4", help: "Upper bounds of heart-rate zones 1-4 in percent, such as 85,90,95,100."),
            OptionSpec(name: "from", valueName: "DATE", help: "The first day the values apply to (default today)."),
        ],
        examples: [
            CommandExample(command: "tally athlete set --max-hr 190 --resting-hr 48 --threshold-hr 172 --ftp 250", explanation: "Set everything from today."),
            CommandExample(command: "tally athlete set --ftp 235 --from 2025-03-01", explanation: "The FTP a test gave in March 2025."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let input = AthleteInput(
            from: command.value("from"), maxHeartRate: command.value("max-hr"), restingHeartRate: command.value("resting-hr"),
            thresholdHeartRate: command.value("threshold-hr"), ftp: command.value("ftp"), heartRateZones: command.value("hr-zones")
        )
        let outcome = try context.dispatcher().execute(.setAthlete(input))
        let entry = outcome.decision.events.compactMap { event -> AthleteEntry? in
            if case .athleteSet(let entry) = event.event { entry } else { nil }
        }.first
        if context.json {
            context.printJSON(.object([
                "changed": .bool(entry != nil),
                "entry": entry.map { .object(AthletePayload.encode($0)) } ?? .null,
            ]))
            return
        }
        if let entry {
            context.console.line(context.catalog.text(.athleteSaved, ["from": entry.from.description, "values": AthleteText.values(entry)]))
        }
        for notice in outcome.decision.notices { context.console.line(NoticeText.text(notice, context.catalog)) }
    }
}

/// `tally athlete show [--as-of WHEN]`
enum AthleteShowCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "show",
        abstract: "Show the settings in force, their zones and their history.",
        options: [OptionSpec(name: "as-of", valueName: "WHEN", help: "The settings in force on WHEN's day; @SEQ shows the log as it was at that position.")],
        examples: [
            CommandExample(command: "tally athlete show", explanation: "Today's settings and zones, and every dated change."),
            CommandExample(command: "tally athlete show --as-of 2025-06-01", explanation: "As they were on 1 June 2025."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        // A day or an instant is the day whose settings are shown, from the whole log; @SEQ shows the log as it was then.
        let bound = try context.asOfBound(command.value("as-of"))
        let state = try context.readState(try context.readLog(), bound: bound.flatMap { if case .position = $0 { $0 } else { nil } })
        let day: LocalDate = switch bound {
        case .instant(let ms)?: LocalDate.containing(ms, in: context.zone)
        default: LocalDate.containing(context.now, in: context.zone)
        }
        let settings = state.athlete.settings(on: day)
        let heart = TrainingZones.heartRate(settings)
        let power = TrainingZones.power(settings)
        if context.json {
            func model(_ zones: ZoneModel?) -> JSON {
                zones.map { .object(["model": .string($0.name), "bounds": .array($0.bounds.map { .int(Int64($0)) })]) } ?? .null
            }
            var inForce = AthletePayload.encode(AthleteEntry(
                from: day, maxHeartRate: settings.maxHeartRate, restingHeartRate: settings.restingHeartRate,
                thresholdHeartRate: settings.thresholdHeartRate, ftp: settings.ftp, heartRateZones: settings.heartRateZones
            ))
            inForce["from"] = nil
            context.printJSON(.object([
                "date": .string(day.description),
                "settings": .object(inForce),
                "heartRateZones": model(heart),
                "powerZones": model(power),
                "history": .array(state.athlete.entries.map { .object(AthletePayload.encode($0)) }),
            ]))
            return
        }
        let catalog = context.catalog
        guard !state.athlete.entries.isEmpty else {
            context.console.line(catalog.text(.athleteNone))
            return
        }
        var lines = [Style(color: context.settings.color).bold(catalog.text(.athleteInForce, ["date": day.description]))]
        let rows: [(MessageID, String?)] = [
            (.fieldMaxHeartRate, settings.maxHeartRate.map { "\($0) bpm" }), (.fieldRestingHeartRate, settings.restingHeartRate.map { "\($0) bpm" }),
            (.fieldThresholdHeartRate, settings.thresholdHeartRate.map { "\($0) bpm" }), (.fieldFTP, settings.ftp.map { "\($0) W" }),
        ]
        let width = rows.map { TextWidth.of(catalog.text($0.0)) }.max() ?? 0
        for (label, value) in rows { lines.append(TextWidth.pad(catalog.text(label), to: width, alignRight: false) + "  " + (value ?? "-")) }
        if let heart {
            lines += ["", catalog.text(.athleteHeartRateZones, ["model": heart.name])] + ZoneText.ranges(heart, unit: "bpm", context: context)
        }
        if let power, let ftp = settings.ftp {
            lines += ["", catalog.text(.athletePowerZones, ["ftp": String(ftp)])] + ZoneText.ranges(power, unit: "W", context: context)
        }
        lines += ["", catalog.text(.athleteHistoryTitle)]
        let table = Table(
            columns: [Table.Column(title: catalog.text(.columnFrom)), Table.Column(title: catalog.text(.fieldSettings))],
            rows: state.athlete.entries.reversed().map { [$0.from.description, AthleteText.values($0)] }
        )
        lines.append(table.render(maxWidth: context.settings.width))
        context.console.line(lines.joined(separator: "\n"))
    }
}

/// Zones as lines of a table: `1  < 146 bpm`, `2  146-153 bpm`, `5  172+ bpm`.
enum ZoneText {
    static func range(_ model: ZoneModel, zone: Int, unit: String) -> String {
        let bounds = model.bounds
        if zone == 1 { return "< \(bounds[0]) \(unit)" }
        if zone > bounds.count { return "\(bounds[bounds.count - 1])+ \(unit)" }
        return "\(bounds[zone - 2])-\(bounds[zone - 1] - 1) \(unit)"
    }

    static func ranges(_ model: ZoneModel, unit: String, context: CLIContext) -> [String] {
        let table = Table(
            columns: [Table.Column(title: context.catalog.text(.columnZone), alignRight: true), Table.Column(title: context.catalog.text(.columnRange))],
            rows: (1...model.count).map { [String($0), range(model, zone: $0, unit: unit)] }
        )
        return [table.render(maxWidth: context.settings.width)]
    }
}
