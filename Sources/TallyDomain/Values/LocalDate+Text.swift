import TallyEssentials

extension LocalDate {
    /// Reads exactly `YYYY-MM-DD`; nil for anything else, including impossible dates.
    public static func parse(_ text: String) -> LocalDate? {
        guard let parsed = try? DateTimeText.parse(Array(text.utf8)),
              parsed.timeOfDayMs == nil
        else { return nil }
        return parsed.date
    }
}
