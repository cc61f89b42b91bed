import Foundation

/// Fuzzes the WHEN, DURATION, DISTANCE and timestamp parsers: any input must parse or throw, never crash,
/// and whatever parses must format and parse back to the same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzValues(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let zone = Zone.named("Europe/Prague")!
    if let seconds = try? ActivityDuration.parse(text), seconds >= 0 {
        let again = try? ActivityDuration.parse(ActivityDuration.format(seconds))
        precondition(again == seconds, "duration \(seconds) does not survive formatting")
    }
    _ = try? Distance.parse(text)
    if let when = try? When.parse(text, now: 1_795_262_400_000, zone: zone, allowLogPosition: true) {
        precondition(When.fromStorage(when.storageText) == when, "\(when) does not survive its storage text")
    }
    if let ms = Timestamp.parse(text) {
        precondition(Timestamp.parse(Timestamp.format(ms)) == ms, "timestamp \(ms) does not survive formatting")
    }
    if let date = LocalDate.parse(text) {
        precondition(LocalDate.parse(date.description) == date)
    }
    return 0
}
