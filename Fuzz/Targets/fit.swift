/// Fuzzes the FIT decoder: any bytes must decode or throw `ActivityFileProblem`, never crash or
/// hang, and a decoded activity must make a record that obeys the event rules.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFIT(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let parsed = try? FITDecoder.decode(bytes) else { return 0 }
    if let fields = try? ActivityFile.fields(parsed, format: "fit", sha256: String(repeating: "0", count: 64), name: nil, category: nil) {
        do {
            try EventRules.checkPayload(.recordLogged(fields))
        } catch {
            preconditionFailure("a decoded FIT activity breaks the event rules: \(error.reason)")
        }
    }
    return 0
}
