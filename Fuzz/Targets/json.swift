/// Fuzzes the JSON parser: any bytes must parse or throw, never crash, and a parsed value
/// must survive every serializer unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let value = try? JSON.parse(utf8: UnsafeBufferPointer(start: data, count: size)) else { return 0 }
    for style in [JSON.Style.compact, .pretty, .canonical] {
        let text = value.serialized(style)
        guard let again = try? JSON.parse(text) else { preconditionFailure("\(style) output does not parse: \(text)") }
        precondition(again == value, "\(style) round trip changed the value: \(text)")
    }
    precondition(value.serialized(.canonical) == (try! JSON.parse(value.serialized(.canonical))).serialized(.canonical))
    return 0
}
