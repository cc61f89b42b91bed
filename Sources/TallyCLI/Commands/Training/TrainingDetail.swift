import TallyEngine
import TallyDomain
import TallyInterchange
import TallyEssentials

/// The zones, laps and splits of `record show`, computed from the kept file with the athlete's
/// settings in force on the activity's day.
enum TrainingDetail {
    static let mile = 1_609.344

    /// Categories shown with a speed rather than a pace.
    static let speedCategories: Set<String> = ["cycling", "skiing", "snowboarding", "skating"]

    /// The title of a column of paces or speeds: `Speed` when every value in it is of a sport shown
    /// with a speed, else `Pace` (a column of runs, or of runs and rides, each value with its unit).
    static func paceTitle(_ categories: some Sequence<String>, catalog: Catalog) -> String {
        var any = false
        for category in categories {
            guard speedCategories.contains(category) else { return catalog.text(.columnPace) }
            any = true
        }
        return catalog.text(any ? .fieldSpeed : .columnPace)
    }

    /// The detail of `record`, or nil when it has no track or its file is not stored.
    static func compute(_ record: Record, state: ReadModel, log: any EventStore, miles: Bool, zone: Zone) throws -> (ActivityDetail, AthleteSettings)? {
        guard let track = record.track else { return nil }
        let kept = KeptTrack(blobs: log, inflate: { bytes, limit in try Gzip.decompress(bytes, limit: limit) })
        guard case .success(let (_, activity)) = try kept.parsed(track) else { return nil }
        let settings = state.athlete.settings(on: LocalDate.containing(record.date, in: zone))
        return (ActivityDetail.compute(activity, category: record.category, settings: settings, splitMeters: miles ? mile : 1_000), settings)
    }

    static func json(_ detail: ActivityDetail, miles: Bool) -> JSON {
        func zones(_ times: ZoneTimes?) -> JSON {
            guard let times else { return .null }
            return .object([
                "model": .string(times.model.name), "bounds": .array(times.model.bounds.map { .int(Int64($0)) }),
                "seconds": .array(times.seconds.map { .double(($0 * 10).rounded() / 10) }),
            ])
        }
        func int(_ value: Int?) -> JSON { value.map { .int(Int64($0)) } ?? .null }
        func tenth(_ value: Double?) -> JSON { value.map { .double(($0 * 10).rounded() / 10) } ?? .null }
        return .object([
            "heartRateZones": zones(detail.heartRateZones),
            "powerZones": zones(detail.powerZones),
            "laps": .array(detail.laps.map { lap in .object([
                "number": .int(Int64(lap.number)), "start": .string(Timestamp.format(lap.start)), "seconds": tenth(lap.seconds),
                "distanceMeters": tenth(lap.distanceMeters), "averageHeartRate": int(lap.averageHeartRate), "maxHeartRate": int(lap.maxHeartRate),
                "averagePower": int(lap.averagePower), "elevationChange": tenth(lap.elevationChange),
            ]) }),
            "splitUnit": .string(miles ? "mi" : "km"),
            "splits": .array(detail.splits.map { split in .object([
                "number": .int(Int64(split.number)), "meters": tenth(split.meters), "seconds": tenth(split.seconds),
                "averageHeartRate": int(split.averageHeartRate), "elevationChange": tenth(split.elevationChange),
            ]) }),
        ])
    }

    /// `5:12 /km`, `8:22 /mi` or `32.4 km/h`, `20.1 mph` for `seconds` over `meters`.
    static func pace(seconds: Double, meters: Double, category: String, miles: Bool) -> String {
        guard meters > 0, seconds > 0 else { return "-" }
        let unit = miles ? mile : 1_000
        if speedCategories.contains(category) {
            let speed = meters / unit / (seconds / 3_600)
            return "\(Int((speed * 10).rounded()) / 10).\(Int((speed * 10).rounded()) % 10) \(miles ? "mph" : "km/h")"
        }
        let perUnit = Int((seconds / (meters / unit)).rounded())
        return "\(perUnit / 60):\(perUnit % 60 < 10 ? "0" : "")\(perUnit % 60) /\(miles ? "mi" : "km")"
    }

    /// The human sections: time in zones, laps, splits.
    static func text(_ detail: ActivityDetail, record: Record, miles: Bool, context: CLIContext) -> String {
        let catalog = context.catalog
        var sections: [String] = []
        func zoneSection(_ times: ZoneTimes?, title: String, unit: String) {
            guard let times else { return }
            let total = times.seconds.reduce(0, +)
            let rows = times.seconds.enumerated().map { index, seconds in
                [String(index + 1), ZoneText.range(times.model, zone: index + 1, unit: unit), ActivityDuration.format(Int(seconds.rounded())),
                 total > 0 ? "\(Int((seconds / total * 100).rounded())) %" : "-"]
            }
            let table = Table(columns: [
                Table.Column(title: catalog.text(.columnZone), alignRight: true), Table.Column(title: catalog.text(.columnRange)),
                Table.Column(title: catalog.text(.columnDuration), alignRight: true), Table.Column(title: "%", alignRight: true),
            ], rows: rows)
            sections.append(title + "\n" + table.render(maxWidth: context.settings.width))
        }
        zoneSection(detail.heartRateZones, title: catalog.text(.athleteHeartRateZones, ["model": detail.heartRateZones?.model.name ?? ""]), unit: "bpm")
        zoneSection(detail.powerZones, title: catalog.text(.sectionPowerZones), unit: "W")
        func hr(_ value: Int?) -> String { value.map(String.init) ?? "-" }
        func elevation(_ change: Double?) -> String { change.map { "\($0 >= 0 ? "+" : "")\(Int($0.rounded())) m" } ?? "-" }
        // One activity, one sport: its laps and splits are a speed or a pace, and the column says which.
        let paceTitle = Self.paceTitle([record.category], catalog: catalog)
        if !detail.laps.isEmpty {
            let rows = detail.laps.map { lap in
                [String(lap.number), ActivityDuration.format(Int(lap.seconds.rounded())), lap.distanceMeters.map { distance($0, miles: miles) } ?? "-",
                 lap.distanceMeters.map { pace(seconds: lap.seconds, meters: $0, category: record.category, miles: miles) } ?? "-",
                 hr(lap.averageHeartRate), hr(lap.maxHeartRate), lap.averagePower.map { "\($0) W" } ?? "-", elevation(lap.elevationChange)]
            }
            let table = Table(columns: [
                Table.Column(title: catalog.text(.columnLap), alignRight: true), Table.Column(title: catalog.text(.columnDuration), alignRight: true),
                Table.Column(title: catalog.text(.columnDistance), alignRight: true), Table.Column(title: paceTitle, alignRight: true),
                Table.Column(title: catalog.text(.columnHeartRate), alignRight: true), Table.Column(title: catalog.text(.columnMaxHeartRate), alignRight: true),
                Table.Column(title: catalog.text(.fieldPower), alignRight: true), Table.Column(title: catalog.text(.columnElevation), alignRight: true),
            ], rows: rows)
            sections.append(catalog.text(.sectionLaps) + "\n" + table.render(maxWidth: context.settings.width))
        }
        if !detail.splits.isEmpty {
            let rows = detail.splits.map { split in
                [miles ? "\(split.number) mi" : "\(split.number) km", ActivityDuration.format(Int(split.seconds.rounded())),
                 pace(seconds: split.seconds, meters: split.meters, category: record.category, miles: miles), hr(split.averageHeartRate),
                 elevation(split.elevationChange)]
            }
            let table = Table(columns: [
                Table.Column(title: catalog.text(.columnSplit), alignRight: true), Table.Column(title: catalog.text(.columnDuration), alignRight: true),
                Table.Column(title: paceTitle, alignRight: true), Table.Column(title: catalog.text(.columnHeartRate), alignRight: true),
                Table.Column(title: catalog.text(.columnElevation), alignRight: true),
            ], rows: rows)
            sections.append(catalog.text(.sectionSplits) + "\n" + table.render(maxWidth: context.settings.width))
        }
        return sections.joined(separator: "\n\n")
    }

    static func distance(_ meters: Double, miles: Bool) -> String {
        guard miles else { return Distance.format(meters) }
        let hundredths = Int((meters / mile * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) mi"
    }
}
