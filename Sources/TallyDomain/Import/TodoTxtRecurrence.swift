import Foundation

/// todo.txt's `rec:` and `t:` keys, as written by the todo.txt recurrence and threshold add-ons.
///
/// `rec:1w` repeats a week after completion, `rec:+1w` a week after the previous due date
/// (fixed); units `d`, `w`, `m`, `y` and `b` (business days: weekdays). `t:2026-11-20`
/// (the threshold date) hides the todo until that day: its wait date.
enum TodoTxtRecurrence {
    /// `rec:` value → the rule; nil when it is not one.
    static func rule(_ value: String) -> RecurrenceRule? {
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

    /// The series of a pending line with `rec:`, and the todo's fields linked to it.
    static func series(_ rule: RecurrenceRule, fields: inout TodoFields, todoStream: String, source: ImportSource, createdAt: Int64?) -> ImportedSeries? {
        guard let due = fields.due else { return nil }
        let stream = NameUUID.make("todotxt-series:" + todoStream)
        fields.series = stream
        return ImportedSeries(
            stream: stream, source: source,
            fields: SeriesFields(rule: rule, start: due, title: fields.title, tags: fields.tags, priority: fields.priority, note: fields.note),
            createdAt: createdAt
        )
    }
}
