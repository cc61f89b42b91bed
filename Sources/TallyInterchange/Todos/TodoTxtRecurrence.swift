#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials
import TallyDomain

/// todo.txt's `rec:` and `t:` keys, as written by the todo.txt recurrence and threshold add-ons.
///
/// `rec:1w` repeats a week after completion, `rec:+1w` a week after the previous due date
/// (fixed); units `d`, `w`, `m`, `y` and `b` (business days: weekdays). `t:2026-11-20`
/// (the threshold date) hides the todo until that day: its wait date.
public enum TodoTxtRecurrence {
    /// `rec:` value → the rule; nil when it is not one.
    public static func rule(_ value: String) -> RecurrenceRule? {
        let fixed = value.hasPrefix("+")
        let text = fixed ? String(value.dropFirst()) : value
        guard let unit = text.last else { return nil }
        let digits = text.dropLast()
        let count = digits.isEmpty ? 1 : Int(digits) ?? 0
        guard digits.allSatisfy(\.isNumber), (1...RecurrencePeriod.maxCount).contains(count) else { return nil }
        let period: RecurrencePeriod
        switch unit.lowercased() {
        case "d": period = .days(count)
        case "w": period = .weeks(count)
        case "m": period = .months(count)
        case "y": period = .years(count)
        case "b" where count == 1: period = .weekdays
        default: return nil
        }
        return RecurrenceRule(period: period, anchor: fixed ? .due : .completion)
    }

    /// The `rec:` and `t:` of one line, as the line is read.
    public struct Keys {
        var rule: RecurrenceRule?
        var wait: Due?

        /// Takes a `rec:` or `t:` it can read (true: it leaves the title); a completed line's `rec:` too,
        /// since its next occurrence is a line of its own.
        mutating func read(_ key: String, _ value: String, completed: Bool) -> Bool {
            switch key {
            case "rec":
                guard let rule = TodoTxtRecurrence.rule(value) else { return false }
                if !completed { self.rule = rule }
                return true
            case "t":
                guard let day = LocalDate.parse(value) else { return false }
                wait = .date(day)
                return true
            default:
                return false
            }
        }

        /// Sets the wait date and, for `rec:` on a line with a due date, starts its series with this todo as the first instance.
        func apply(to fields: inout TodoFields, todoStream: String, source: ImportSource, into batch: inout ImportBatch) {
            fields.wait = wait
            guard let rule else { return }
            guard let due = fields.due else {
                batch.warnings.append(ImportIssue(source: source, problem: .recurrenceWithoutDue(field: "rec")))
                return
            }
            let stream = NameUUID.make("todotxt-series:" + todoStream)
            fields.series = stream
            batch.series.append(ImportedSeries(
                stream: stream, source: source,
                fields: SeriesFields(rule: rule, start: due, title: fields.title, tags: fields.tags, priority: fields.priority, note: fields.note)
            ))
        }
    }
}
