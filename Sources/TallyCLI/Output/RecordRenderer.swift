#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEngine
import TallyDomain
import TallyEssentials

/// Human output for records: the list table, confirmations and the detail view.
struct RecordRenderer {
    let context: CLIContext

    private var catalog: Catalog { context.catalog }

    /// `4: Morning run` — how one record is named in messages.
    func label(_ record: Record) -> String {
        "\(record.number): \(TerminalText.escaped(record.name))"
    }

    func date(_ ms: Int64) -> String {
        Timestamp.formatLocal(ms, in: context.zone, withTime: true)
    }

    func distance(_ meters: Double?) -> String {
        meters.map(Distance.format) ?? ""
    }

    /// Pace for runs and walks, speed for rides and other fast sports (`TrainingDetail.speedCategories`).
    func pace(_ record: Record, miles: Bool = false) -> String {
        guard let meters = record.distanceMeters, meters > 0 else { return "" }
        return TrainingDetail.pace(seconds: Double(record.durationSeconds), meters: meters, category: record.category, miles: miles)
    }

    /// The name cell: deleted records say so in words, dimmed on a terminal; a multisport leg
    /// says which leg of its activity it is.
    func name(_ record: Record) -> String {
        var name = record.name
        if let part = record.track?.part, part.kind == .leg {
            name = catalog.text(.recordLegName, ["name": name, "index": String(part.index), "count": String(part.count)])
        }
        guard record.deleted else { return TerminalText.escaped(name) }
        return Style(color: context.settings.color).dim(catalog.text(.recordDeletedName, ["name": name]))
    }

    /// The rows saying where a record's file put it: the legs of its multisport activity with
    /// their total, or the day of a file of several days.
    func partRows(_ record: Record, legs: [Record]) -> [(String, String)] {
        guard let part = record.track?.part else { return [] }
        switch part.kind {
        case .day:
            return [(catalog.text(.fieldFilePart), catalog.text(.filePartDay, ["index": String(part.index), "count": String(part.count)]))]
        case .leg:
            let shown = legs.filter { !$0.deleted || $0.id == record.id }
            let list = shown.map { "\($0.number) \($0.category) \(ActivityDuration.format($0.durationSeconds))" }.joined(separator: ", ")
            let seconds = shown.reduce(0) { $0 + $1.durationSeconds }
            let meters = shown.reduce(0.0) { $0 + ($1.distanceMeters ?? 0) }
            return [
                (catalog.text(.fieldMultisport), catalog.text(.multisportLegLine, ["index": String(part.index), "count": String(part.count), "legs": list])),
                ("", catalog.text(.multisportTotal, ["time": ActivityDuration.format(seconds), "distance": Distance.format(meters)])),
            ]
        }
    }

    /// The list table and its footer.
    func table(_ view: RecordView) -> String {
        guard !view.records.isEmpty else { return catalog.text(.recordListEmpty) }
        let columns = [
            Table.Column(title: catalog.text(.columnNumber), alignRight: true),
            Table.Column(title: catalog.text(.columnDate)),
            Table.Column(title: catalog.text(.columnName), truncatable: true, minWidth: 6, shrinkOrder: 1),
            Table.Column(title: catalog.text(.columnCategory), dropOrder: 4),
            Table.Column(title: catalog.text(.columnDuration), alignRight: true),
            Table.Column(title: catalog.text(.columnDistance), alignRight: true, dropOrder: 5),
            Table.Column(title: TrainingDetail.paceTitle(view.records.filter { ($0.distanceMeters ?? 0) > 0 }.map(\.category), catalog: catalog), alignRight: true, dropOrder: 2),
            Table.Column(title: catalog.text(.columnPlace), truncatable: true, minWidth: 5, dropOrder: 1),
        ]
        func table(withTime: Bool) -> Table {
            let rows = view.records.map { record in
                [
                    String(record.number), Timestamp.formatLocal(record.date, in: context.zone, withTime: withTime), name(record), record.category,
                    ActivityDuration.format(record.durationSeconds), distance(record.distanceMeters), pace(record), TerminalText.escaped(record.place ?? ""),
                ]
            }
            return Table(columns: columns, rows: rows, ellipsis: context.settings.unicode ? "…" : "...")
        }
        // The time of day goes after place and pace, before the category and the distance.
        let chosen = Table.leastLoss([(table(withTime: true), nil), (table(withTime: false), 3)], maxWidth: context.settings.width)
        return chosen.render(maxWidth: context.settings.width) + "\n\n" + WordWrap.wrapped(footer(view), width: context.settings.width)
    }

    func footer(_ view: RecordView) -> String {
        var text = catalog.plural(.recordFooter, count: view.records.count, [
            "time": ActivityDuration.format(view.totalSeconds),
            "distance": Distance.format(view.totalMeters),
        ])
        if view.records.count < view.matched {
            text += " " + catalog.text(.footerShowing, ["shown": String(view.records.count), "matched": String(view.matched)])
        }
        return text
    }

    /// Heart rate, cadence and power rows of the detail view, for the figures the file had.
    func sensorRows(_ sensors: SensorSummary?) -> [(String, String)] {
        guard let sensors else { return [] }
        var rows: [(String, String)] = []
        let none = "-"
        if sensors.averageHeartRate != nil || sensors.maxHeartRate != nil {
            rows.append((catalog.text(.fieldHeartRate), catalog.text(.sensorHeartRate, [
                "average": sensors.averageHeartRate.map(String.init) ?? none, "max": sensors.maxHeartRate.map(String.init) ?? none,
            ])))
        }
        if let cadence = sensors.averageCadence {
            rows.append((catalog.text(.fieldCadence), catalog.text(.sensorCadence, ["average": String(cadence)])))
        }
        if sensors.averagePower != nil || sensors.normalizedPower != nil {
            rows.append((catalog.text(.fieldPower), catalog.text(.sensorPower, [
                "average": sensors.averagePower.map(String.init) ?? none, "normalized": sensors.normalizedPower.map(String.init) ?? none,
            ])))
        }
        return rows
    }

    /// The detail view of `record show`, ending with the record's history.
    func detail(_ record: Record, history: [EventEnvelope], legs: [Record] = [], gearNames: [String: String] = [:], miles: Bool = false) -> String {
        let speed = TrainingDetail.speedCategories.contains(record.category)
        var rows: [(String, String)] = [
            (catalog.text(.fieldNumber), String(record.number)),
            (catalog.text(.fieldID), record.id),
            (catalog.text(.fieldName), TerminalText.escaped(record.name)),
            (catalog.text(.fieldCategory), record.category),
            (catalog.text(.fieldDate), date(record.date)),
            (catalog.text(.fieldDuration), ActivityDuration.format(record.durationSeconds)),
            (catalog.text(.fieldDistance), record.distanceMeters.map(Distance.format) ?? "-"),
            (catalog.text(speed ? .fieldSpeed : .fieldPace), record.distanceMeters.map { _ in pace(record, miles: miles) } ?? "-"),
            (catalog.text(.fieldPlace), record.place.map(TerminalText.escaped) ?? "-"),
            (catalog.text(.fieldNote), record.note.map(TerminalText.escapedKeepingLines) ?? "-"),
        ]
        if let effort = record.effort { rows.append((catalog.text(.fieldEffort), ChangeDescriber.effort(effort))) }
        if let gear = record.gear { rows.append((catalog.text(.columnGear), TerminalText.escaped(gearNames[gear] ?? String(gear.prefix(8))))) }
        rows += [
            (catalog.text(.fieldSource), record.source.rawValue),
            (catalog.text(.fieldStatus), catalog.text(record.deleted ? .statusDeleted : .statusActive)),
            (catalog.text(.fieldCreated), date(record.createdAt)),
            (catalog.text(.fieldUpdated), date(record.updatedAt)),
        ]
        if let track = record.track {
            rows.insert(contentsOf: [
                (catalog.text(.fieldMovingTime), ActivityDuration.format(max(track.movingSeconds, 1))),
                (catalog.text(.fieldElevationGain), track.elevationGainMeters.map { "\(Int($0.rounded())) m" } ?? "-"),
                (catalog.text(.fieldTrack), "\(track.format) sha256:\(track.sha256.prefix(16))"),
            ] + sensorRows(track.sensors) + partRows(record, legs: legs), at: 8)
        }
        let width = rows.map { TextWidth.of($0.0) }.max() ?? 0
        var lines = rows.map { TextWidth.pad($0.0, to: width, alignRight: false) + "  " + $0.1 }
        lines.append("")
        lines.append(Style(color: context.settings.color).bold(catalog.text(.fieldHistory)))
        let describer = EventDescriber(catalog: catalog, zone: context.zone, gearNames: gearNames)
        for event in history {
            lines.append("  " + describer.historyLine(event))
        }
        return lines.joined(separator: "\n")
    }
}
