/// A POSIX TZ string: `CET-1CEST,M3.5.0,M10.5.0/3`, `EST5EDT`, `<+1030>-10:30<+11>-11,M10.1.0,M4.1.0`, `UTC0`.
///
/// `std offset [dst [offset] [,start[/time],end[/time]]]`. Offsets count hours west of UTC, so `CET-1` is one
/// hour ahead. The daylight offset defaults to one hour ahead of standard time, and the rule to the US one
/// (`M3.2.0,M11.1.0`). Dates are `Jn` (1...365, February 29 never counted), `n` (0...365, counted) or `Mm.w.d`
/// (day `d`, 0 = Sunday, of week `w` of month `m`, 5 = the last). Times default to 02:00 and may be negative or
/// beyond 24 hours, as TZif footers write them (`M3.5.0/-2`, `J365/25`). The start time is read in standard
/// time, the end time in daylight time.
public struct PosixZoneRule: Sendable, Equatable {
    /// Seconds east of UTC in standard time.
    public let standardOffset: Int32
    /// Daylight saving time, when the string names it.
    public let daylight: Daylight?

    public struct Daylight: Sendable, Equatable {
        /// Seconds east of UTC in daylight time.
        public let offset: Int32
        public let start: Transition
        public let end: Transition
    }

    /// A day of the year and a local time of day.
    public struct Transition: Sendable, Equatable {
        enum Day: Sendable, Equatable {
            /// `Jn`: day 1...365, February 29 not counted.
            case julianNoLeap(Int)
            /// `n`: day 0...365, February 29 counted.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1...5, 5 = last) of month `m`.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }

        let day: Day
        /// Seconds after local midnight (may be negative or past a day).
        public let time: Int32

        /// The date in `year`.
        public func date(in year: Int) -> LocalDate {
            switch day {
            case .julianNoLeap(let n):
                // Day n with February 29 skipped: after February of a leap year, one more.
                let jan1 = LocalDate(uncheckedYear: year, month: 1, day: 1)
                let leapShift = LocalDate.isLeapYear(year) && n >= 60 ? 1 : 0
                return jan1.adding(days: n - 1 + leapShift)
            case .zeroBased(let n):
                return LocalDate(uncheckedYear: year, month: 1, day: 1).adding(days: n)
            case .monthWeekDay(let month, let week, let weekday):
                let first = LocalDate(uncheckedYear: year, month: month, day: 1)
                // LocalDate.weekday is ISO (Monday 1 ... Sunday 7); POSIX counts Sunday as 0.
                let firstWeekday = first.weekday % 7
                var day = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
                let length = LocalDate.daysInMonth(year: year, month: month)
                while day > length { day -= 7 }
                return LocalDate(uncheckedYear: year, month: month, day: day)
            }
        }

        /// The UTC second of this transition in `year`, for a clock `offset` seconds ahead of UTC.
        func instant(in year: Int, offset: Int32) -> Int64 {
            date(in: year).dayNumber * 86_400 + Int64(time) - Int64(offset)
        }
    }

    /// The offset in seconds east of UTC at the instant `utcSeconds`.
    public func offset(at utcSeconds: Int64) -> Int32 {
        guard let daylight else { return standardOffset }
        let local = utcSeconds + Int64(standardOffset)
        let year = LocalDate(dayNumber: ValueMath.floorDiv(local, 86_400)).year
        let start = daylight.start.instant(in: year, offset: standardOffset)
        let end = daylight.end.instant(in: year, offset: daylight.offset)
        let inDaylight = start < end
            ? utcSeconds >= start && utcSeconds < end
            // Southern hemisphere: daylight time spans the new year.
            : utcSeconds < end || utcSeconds >= start
        return inDaylight ? daylight.offset : standardOffset
    }

    /// Reads a POSIX TZ string; nil when it is not one.
    public init?(_ text: String) {
        var cursor = ByteCursor(Array(text.utf8))
        guard PosixZoneRule.name(&cursor), let standardWest = PosixZoneRule.time(&cursor) else { return nil }
        standardOffset = -standardWest
        if cursor.atEnd {
            daylight = nil
            return
        }
        guard PosixZoneRule.name(&cursor) else { return nil }
        var daylightOffset = standardOffset + 3600
        if let peek = cursor.peek, peek != UInt8(ascii: ",") {
            guard let west = PosixZoneRule.time(&cursor) else { return nil }
            daylightOffset = -west
        }
        let start: Transition
        let end: Transition
        if cursor.atEnd {
            start = Transition(day: .monthWeekDay(month: 3, week: 2, weekday: 0), time: 7200)
            end = Transition(day: .monthWeekDay(month: 11, week: 1, weekday: 0), time: 7200)
        } else {
            guard cursor.take(UInt8(ascii: ",")), let first = PosixZoneRule.transition(&cursor),
                  cursor.take(UInt8(ascii: ",")), let second = PosixZoneRule.transition(&cursor), cursor.atEnd
            else { return nil }
            start = first
            end = second
        }
        daylight = Daylight(offset: daylightOffset, start: start, end: end)
    }

    /// A zone abbreviation: three or more letters, or anything but `>` between `<` and `>`.
    private static func name(_ cursor: inout ByteCursor) -> Bool {
        if cursor.take(UInt8(ascii: "<")) {
            let start = cursor.index
            while let byte = cursor.peek, byte != UInt8(ascii: ">") { cursor.index += 1 }
            let length = cursor.index - start
            return cursor.take(UInt8(ascii: ">")) && length >= 1
        }
        return cursor.letters().count >= 3
    }

    /// `[+|-]hh[:mm[:ss]]` in seconds; hours up to 167 (the TZif extension of POSIX's 24).
    private static func time(_ cursor: inout ByteCursor) -> Int32? {
        var sign: Int32 = 1
        if let byte = cursor.take(anyOf: [UInt8(ascii: "+"), UInt8(ascii: "-")]) {
            sign = byte == UInt8(ascii: "-") ? -1 : 1
        }
        let hourDigits = cursor.digits()
        guard (1...3).contains(hourDigits.count), let hours = ByteCursor.value(hourDigits), hours <= 167 else { return nil }
        var seconds = Int32(hours) * 3600
        for unit: Int32 in [60, 1] {
            guard cursor.take(UInt8(ascii: ":")) else { break }
            let digits = cursor.digits()
            guard digits.count == 2, let value = ByteCursor.value(digits), value <= 59 else { return nil }
            seconds += Int32(value) * unit
        }
        return sign * seconds
    }

    /// `Jn`, `n` or `Mm.w.d`, then an optional `/time`.
    private static func transition(_ cursor: inout ByteCursor) -> Transition? {
        let day: Transition.Day
        if cursor.take(UInt8(ascii: "J")) {
            guard let n = number(&cursor), (1...365).contains(n) else { return nil }
            day = .julianNoLeap(n)
        } else if cursor.take(UInt8(ascii: "M")) {
            guard let month = number(&cursor), (1...12).contains(month), cursor.take(UInt8(ascii: ".")),
                  let week = number(&cursor), (1...5).contains(week), cursor.take(UInt8(ascii: ".")),
                  let weekday = number(&cursor), (0...6).contains(weekday)
            else { return nil }
            day = .monthWeekDay(month: month, week: week, weekday: weekday)
        } else {
            guard let n = number(&cursor), (0...365).contains(n) else { return nil }
            day = .zeroBased(n)
        }
        var time: Int32 = 7200
        if cursor.take(UInt8(ascii: "/")) {
            guard let value = PosixZoneRule.time(&cursor) else { return nil }
            time = value
        }
        return Transition(day: day, time: time)
    }

    private static func number(_ cursor: inout ByteCursor) -> Int? {
        let digits = cursor.digits()
        guard (1...3).contains(digits.count), let value = ByteCursor.value(digits) else { return nil }
        return Int(value)
    }
}
