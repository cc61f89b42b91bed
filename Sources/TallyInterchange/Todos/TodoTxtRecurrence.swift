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
        /// The `rec:` value as written, kept in the note when it cannot start a series.
        var ruleText: String?
        var wait: Due?

        /// Takes the first `rec:` or `t:` it can read (true: it leaves the title). A second one of the
        /// same key stays in the title (false), so no value is lost.
        mutating func read(_ key: String, _ value: String, completed: Bool) -> Bool {
            switch key {
            case "rec":
                guard ruleText == nil, let rule = TodoTxtRecurrence.rule(value) else { return false }
                self.rule = rule
                ruleText = value
                return true
            case "t":
                guard wait == nil, let day = LocalDate.parse(value) else { return false }
                wait = .date(day)
                return true
            default:
                return false
            }
        }

        /// A `rec:` that cannot start a series — on a completed line (its next occurrence is a line of its
        /// own) or without a due date — as a note line (`rec: 1w`) and its warning; nil when it can.
        func unused(completed: Bool, due: Due?) -> (line: String, problem: ImportProblem)? {
            guard let ruleText else { return nil }
            if completed { return ("rec: " + ruleText, .unsupportedField("rec")) }
            if due == nil { return ("rec: " + ruleText, .recurrenceWithoutDue(field: "rec")) }
            return nil
        }

        /// Sets the wait date and, for `rec:` on a pending line with a due date, starts its series with this
        /// todo as the first instance (see `unused` for the others).
        func apply(to fields: inout TodoFields, completed: Bool, todoStream: String, source: ImportSource, into batch: inout ImportBatch) {
            fields.wait = wait
            guard let rule, !completed, let due = fields.due else { return }
            let stream = NameUUID.make("todotxt-series:" + todoStream)
            fields.series = stream
            batch.series.append(ImportedSeries(
                stream: stream, source: source,
                fields: SeriesFields(rule: rule, start: due, title: fields.title, tags: fields.tags, priority: fields.priority, note: fields.note)
            ))
        }
    }
}
