import TallyEssentials
import TallyDomain

/// Writes todos with due dates as an RFC 5545 iCalendar file of `VTODO`s.
///
/// Each todo: `UID` (its id), `DTSTAMP`, `CREATED`, `LAST-MODIFIED`, `SUMMARY` (title), `DESCRIPTION`
/// (note), `DUE` (a `VALUE=DATE` for a whole day, else a local time with `TZID`, or UTC in the UTC zone),
/// `STATUS` (`NEEDS-ACTION`, or `COMPLETED` with `COMPLETED` and `PERCENT-COMPLETE:100`), `PRIORITY`
/// (high 1, medium 5, low 9), `CATEGORIES` (tags), `X-TALLY-PROJECT`. The open instance of a series
/// on a fixed schedule carries `DTSTART` (its due) and an `RRULE` (`rrule(for:)`); the zone of timed
/// dues is described by a `VTIMEZONE` with every transition from the earliest due's year to ten years
/// after the latest. Lines are folded at 75 octets, never inside a UTF-8 sequence; text is escaped.
public enum ICalendarExport {
    /// The calendar's text, CRLF line ends. `now` is the `DTSTAMP`.
    public static func calendar(_ todos: [Todo], series: (String) -> Series?, zone: Zone, now: Int64, version: String) -> String {
        let timed = todos.contains { if case .instant? = $0.due { true } else { false } }
        let useZone = timed && !isUTC(zone)
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//tally//tally \(version)//EN", "CALSCALE:GREGORIAN"]
        if useZone { lines += timezone(zone, todos: todos) }
        let stamp = utc(now)
        for todo in todos {
            guard let due = todo.due else { continue }
            lines.append("BEGIN:VTODO")
            lines.append("UID:" + todo.id)
            lines.append("DTSTAMP:" + stamp)
            lines.append("CREATED:" + utc(todo.createdAt))
            lines.append("LAST-MODIFIED:" + utc(todo.updatedAt))
            lines.append("SUMMARY:" + text(todo.title))
            if let note = todo.note { lines.append("DESCRIPTION:" + text(note)) }
            let dueValue = value(due, zone: zone, useZone: useZone)
            let rule = todo.completed ? nil : todo.series.flatMap(series).flatMap { rrule(for: $0, due: due, zone: zone) }
            if rule != nil { lines.append("DTSTART" + dueValue) }
            lines.append("DUE" + dueValue)
            if let rule { lines.append("RRULE:" + rule) }
            if todo.completed {
                lines.append("STATUS:COMPLETED")
                if let completedAt = todo.completedAt { lines.append("COMPLETED:" + utc(completedAt)) }
                lines.append("PERCENT-COMPLETE:100")
            } else {
                lines.append("STATUS:NEEDS-ACTION")
            }
            if let priority = todo.priority {
                lines.append("PRIORITY:" + (priority == .high ? "1" : priority == .medium ? "5" : "9"))
            }
            if !todo.tags.isEmpty { lines.append("CATEGORIES:" + todo.tags.map(text).joined(separator: ",")) }
            if let project = todo.project { lines.append("X-TALLY-PROJECT:" + text(project)) }
            lines.append("END:VTODO")
        }
        lines.append("END:VCALENDAR")
        return lines.map(fold).joined(separator: "\r\n") + "\r\n"
    }

    /// The `RRULE` of a series on a fixed schedule whose open instance is due at `due`; nil when the
    /// series ended or counts from the completion (no iCalendar rule says "a period after it was done").
    ///
    /// `Nd` → `FREQ=DAILY;INTERVAL=N`; `Nw` → `WEEKLY`; `weekdays` → `WEEKLY;BYDAY=MO,TU,WE,TH,FR`; `Nm` →
    /// `MONTHLY`, and from a series on the 29th–31st `BYMONTHDAY=28,…,D;BYSETPOS=-1` (tally falls back to a
    /// shorter month's last day, where a plain `MONTHLY` would skip the month); `Ny` → `YEARLY`, and from
    /// 29 February `BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1`. `--until` → `UNTIL` (a date, or the end of
    /// that local day in UTC for a timed due).
    public static func rrule(for series: Series, due: Due, zone: Zone) -> String? {
        guard !series.ended, series.fields.rule.anchor == .due else { return nil }
        let startDay: LocalDate = switch series.fields.start {
        case .date(let day): day
        case .instant(let ms): LocalDate.containing(ms, in: zone)
        }
        var parts: [String]
        switch series.fields.rule.period {
        case .days(let n): parts = ["FREQ=DAILY", "INTERVAL=\(n)"]
        case .weeks(let n): parts = ["FREQ=WEEKLY", "INTERVAL=\(n)"]
        case .weekdays: parts = ["FREQ=WEEKLY", "BYDAY=MO,TU,WE,TH,FR"]
        case .months(let n):
            parts = ["FREQ=MONTHLY", "INTERVAL=\(n)"]
            if startDay.day > 28 {
                parts += ["BYMONTHDAY=" + (28...startDay.day).map(String.init).joined(separator: ","), "BYSETPOS=-1"]
            }
        case .years(let n):
            parts = ["FREQ=YEARLY", "INTERVAL=\(n)"]
            if startDay.month == 2, startDay.day == 29 { parts += ["BYMONTH=2", "BYMONTHDAY=28,29", "BYSETPOS=-1"] }
        }
        if let until = series.fields.until {
            switch due {
            case .date: parts.append("UNTIL=" + compact(until))
            case .instant: parts.append("UNTIL=" + utc(until.adding(days: 1).startInstant(in: zone) - 1000))
            }
        }
        return parts.joined(separator: ";")
    }

    /// `;VALUE=DATE:20261125`, `;TZID=Europe/Prague:20261125T090000` or `:20261125T080000Z` (with its colon).
    static func value(_ due: Due, zone: Zone, useZone: Bool) -> String {
        switch due {
        case .date(let day): return ";VALUE=DATE:" + compact(day)
        case .instant(let ms):
            guard useZone else { return ":" + utc(ms) }
            return ";TZID=" + parameter(zone.name) + ":" + local(WallClock.localMs(ms, in: zone))
        }
    }

    static func isUTC(_ zone: Zone) -> Bool {
        zone.initialOffset == 0 && zone.offsets.allSatisfy { $0 == 0 }
            && zone.rule.map { $0.standardOffset == 0 && $0.daylight == nil } ?? true
    }

    /// `VTIMEZONE` for `zone`: the offset at the start of the earliest due's year, then every transition
    /// until ten years after the latest due, each a `STANDARD` or `DAYLIGHT` observance.
    static func timezone(_ zone: Zone, todos: [Todo]) -> [String] {
        let instants = todos.compactMap { todo -> Int64? in if case .instant(let ms)? = todo.due { ms } else { nil } }
        let firstYear = LocalDate.containing(instants.min() ?? 0, in: zone).year
        let lastYear = min(LocalDate.containing(instants.max() ?? 0, in: zone).year + 10, 9999)
        let start = LocalDate(uncheckedYear: firstYear, month: 1, day: 1).startInstant(in: zone) / 1000
        let end = LocalDate(uncheckedYear: lastYear, month: 12, day: 31).startInstant(in: zone) / 1000
        // The zone's standard offset: its rule's, else the smallest offset seen.
        var changes: [(at: Int64, from: Int32, to: Int32)] = []
        var time = start
        var offset = zone.offsetSeconds(at: start)
        while time < end {
            let next = min(time + 86_400, end)
            let after = zone.offsetSeconds(at: next)
            if after != offset {
                // The first second with the new offset.
                var low = time
                var high = next
                while high - low > 1 {
                    let middle = low + (high - low) / 2
                    if zone.offsetSeconds(at: middle) == offset { low = middle } else { high = middle }
                }
                changes.append((high, offset, after))
                offset = after
            }
            time = next
        }
        let initial = zone.offsetSeconds(at: start)
        let standard = zone.rule?.standardOffset ?? ([initial] + changes.map(\.to)).min() ?? initial
        func observance(at seconds: Int64, from: Int32, to: Int32) -> [String] {
            let kind = to > standard ? "DAYLIGHT" : "STANDARD"
            return ["BEGIN:" + kind, "DTSTART:" + local((seconds + Int64(from)) * 1000), "TZOFFSETFROM:" + offsetText(from),
                    "TZOFFSETTO:" + offsetText(to), "END:" + kind]
        }
        var lines = ["BEGIN:VTIMEZONE", "TZID:" + zone.name]
        lines += observance(at: start, from: initial, to: initial)
        for change in changes { lines += observance(at: change.at, from: change.from, to: change.to) }
        lines.append("END:VTIMEZONE")
        return lines
    }

    /// `+0100`, `-0530`, `+013045` when there are seconds.
    static func offsetText(_ seconds: Int32) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let value = abs(Int(seconds))
        var result = sign + two(value / 3600) + two(value / 60 % 60)
        if value % 60 != 0 { result += two(value % 60) }
        return result
    }

    /// A parameter value, quoted when it holds `,`, `;` or `:` (a POSIX zone string).
    static func parameter(_ value: String) -> String {
        let clean = value.filter { $0 != "\"" && !($0.unicodeScalars.first.map(Validation.isControl) ?? false) }
        return clean.contains(where: { $0 == "," || $0 == ";" || $0 == ":" }) ? "\"" + clean + "\"" : clean
    }

    /// TEXT escaping (RFC 5545 3.3.11): backslash, semicolon, comma, and line breaks as `\n`.
    public static func text(_ value: String) -> String {
        var result = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\n": result += "\\n"
            case "\r": continue
            default:
                // Other controls but tab cannot appear in TEXT; a todo never holds them, but a line must not either.
                if Validation.isControl(scalar) && scalar != "\t" { result += " " } else { result.unicodeScalars.append(scalar) }
            }
        }
        return result
    }

    /// Folds a content line after 75 octets (74 on continuation lines, after their leading space),
    /// never inside a UTF-8 sequence.
    public static func fold(_ line: String) -> String {
        guard line.utf8.count > 75 else { return line }
        var pieces: [String] = []
        var current: [UInt8] = []
        var limit = 75
        for scalar in line.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if current.count + bytes.count > limit {
                pieces.append(String(decoding: current, as: UTF8.self))
                current = []
                limit = 74
            }
            current += bytes
        }
        pieces.append(String(decoding: current, as: UTF8.self))
        return pieces.joined(separator: "\r\n ")
    }

    static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    static func four(_ value: Int) -> String { String(repeating: "0", count: max(0, 4 - String(value).count)) + String(value) }

    /// `20261125`.
    static func compact(_ day: LocalDate) -> String { four(day.year) + two(day.month) + two(day.day) }

    /// `20261125T090000` from local (wall-clock) milliseconds.
    static func local(_ localMs: Int64) -> String {
        let day = LocalDate(dayNumber: ValueMath.floorDiv(localMs, WallClock.msPerDay))
        let seconds = Int(ValueMath.floorMod(localMs, WallClock.msPerDay) / 1000)
        return compact(day) + "T" + two(seconds / 3600) + two(seconds / 60 % 60) + two(seconds % 60)
    }

    /// `20261125T080000Z`.
    static func utc(_ ms: Int64) -> String { local(ms) + "Z" }
}
