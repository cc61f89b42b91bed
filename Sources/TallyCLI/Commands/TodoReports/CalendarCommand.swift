import TallyArguments
import TallyEssentials
import TallyEngine
import TallyDomain

/// `tally calendar [MONTH] [--as-of WHEN]`
enum CalendarCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "calendar",
        abstract: "Show a month as a grid with the todos due and completed each day.",
        discussion: "MONTH is YYYY-MM, a month number (this year) or any date in it; the default is this month. Today is marked [D]. Only the todos of the active context are counted; deleted ones never.",
        arguments: [ArgumentSpec(name: "MONTH", help: "YYYY-MM, 1-12 or a date in the month.", optional: true)],
        options: [TodoOptions.asOf],
        examples: [
            CommandExample(command: "tally calendar", explanation: "This month."),
            CommandExample(command: "tally calendar 2026-12", explanation: "December 2026."),
            CommandExample(command: "tally calendar 'next month'", explanation: "Any date picks its month."),
        ]
    )

    /// Columns per day: the grid is 7 × 11 = 77 columns wide.
    static let cell = 11

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let (year, month) = try self.month(command.arguments.first, context)
        let bound = try context.asOfBound(command.value("as-of"))
        let state = try context.readState(try context.readLog(), bound: bound)
        let selection = try TodoSelection(TodoContexts(json: state.filters[.todos]).narrowing, model: state, now: context.now, zone: context.zone)
        let calendar = TodoCalendar.run(year: year, month: month, on: state, selection: selection, zone: context.zone)
        let today = LocalDate.containing(context.now, in: context.zone)
        if context.json {
            context.printJSON(.object([
                "month": .string("\(year)-" + ValueMath.pad(month, 2)),
                "today": .string(today.description),
                "days": .array(calendar.days.map { .object(["date": .string($0.date.description), "due": .int(Int64($0.due)), "completed": .int(Int64($0.completed))]) }),
            ]))
            return
        }
        context.console.line(grid(calendar, today: today, context: context))
    }

    /// The month a MONTH argument names; this month without one.
    static func month(_ raw: String?, _ context: CLIContext) throws -> (Int, Int) {
        let today = LocalDate.containing(context.now, in: context.zone)
        guard let raw else { return (today.year, today.month) }
        let invalid = CLIError.invalidOptionValue(option: "MONTH", value: raw, expected: context.catalog.text(.errorInvalidMonth))
        let trimmed = raw.trimming(.whitespaces)
        if let number = Int(trimmed), trimmed.utf8.count <= 2 {
            guard (1...12).contains(number) else { throw invalid }
            return (today.year, number)
        }
        let parts = trimmed.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 2, parts[0].utf8.count == 4, parts[1].utf8.count == 2, let year = Int(parts[0]), let month = Int(parts[1]) {
            guard LocalDate(year: year, month: month, day: 1) != nil else { throw invalid }
            return (year, month)
        }
        guard let when = try? When.parse(trimmed, now: context.now, zone: context.zone) else { throw invalid }
        if case .logPosition = when { throw invalid }
        let date = LocalDate.containing(when.startInstant(in: context.zone), in: context.zone)
        return (date.year, date.month)
    }

    static func grid(_ calendar: TodoCalendar, today: LocalDate, context: CLIContext) -> String {
        let catalog = context.catalog
        let style = Style(color: context.settings.color)
        let months = catalog.text(.calendarMonths).split(separator: " ").map(String.init)
        let weekdays = catalog.text(.calendarWeekdays).split(separator: " ").map(String.init)
        let doneMark = context.settings.unicode ? "✓" : "+"
        func padded(_ text: String) -> String { TextWidth.pad(text, to: cell, alignRight: false) }
        var lines = [style.bold("\(months.indices.contains(calendar.month - 1) ? months[calendar.month - 1] : String(calendar.month)) \(calendar.year)")]
        lines.append(weekdays.map(padded).joined().trimmingTrailingSpaces())
        let lead = (calendar.days.first?.date.weekday ?? 1) - 1
        var slots: [TodoCalendar.Day?] = Array(repeating: nil, count: lead) + calendar.days.map { $0 }
        while slots.count % 7 != 0 { slots.append(nil) }
        for week in stride(from: 0, to: slots.count, by: 7) {
            var numbers = ""
            var counts = ""
            for slot in slots[week..<week + 7] {
                guard let day = slot else {
                    numbers += padded("")
                    counts += padded("")
                    continue
                }
                let number = day.date.day < 10 ? " \(day.date.day)" : "\(day.date.day)"
                let isToday = day.date == today
                let label = isToday ? "[" + number + "]" : " " + number + " "
                numbers += isToday ? style.bold(label) + String(repeating: " ", count: cell - label.count) : padded(label)
                var parts: [String] = []
                if day.due > 0 { parts.append("!\(day.due)") }
                if day.completed > 0 { parts.append(doneMark + "\(day.completed)") }
                counts += padded(" " + parts.joined(separator: " "))
            }
            lines.append(numbers.trimmingTrailingSpaces())
            lines.append(counts.trimmingTrailingSpaces())
        }
        let due = calendar.days.reduce(0) { $0 + $1.due }
        let done = calendar.days.reduce(0) { $0 + $1.completed }
        lines.append("")
        lines.append(WordWrap.wrapped(catalog.text(.calendarTotals, ["due": String(due), "done": String(done), "month": "\(calendar.year)-" + ValueMath.pad(calendar.month, 2)]), width: context.settings.width))
        lines.append(style.dim(WordWrap.wrapped(catalog.text(.calendarLegend, ["due": "!", "done": doneMark]), width: context.settings.width)))
        return lines.joined(separator: "\n")
    }
}

extension String {
    /// Without the spaces at the end (a grid's empty cells).
    func trimmingTrailingSpaces() -> String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
