import Foundation

/// Fuzzes the dates people type (weekday names, eow/eom/eoy, `in 3 days`, `za 3 dny`, offsets) and
/// recurrence periods: any input must parse or throw, never crash; a date or instant must survive its
/// storage text; a period its stored form; and the schedule must move forward from any parsed date.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDates(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for zone in [Zone.named("Europe/Prague")!, Zone.utc] {
        if let when = try? When.parse(text, now: 1_795_262_400_000, zone: zone) {
            precondition(When.fromStorage(when.storageText) == when, "\(when) does not survive its storage text")
        }
    }
    if let period = try? RecurrencePeriod.parse(text) {
        precondition((try? RecurrencePeriod.parse(period.description)) == period, "\(period) does not survive its stored form")
        let start = LocalDate(year: 2024, month: 2, day: 29)!
        precondition(period.after(start) > start, "\(period) does not move forward")
    }
    return 0
}
