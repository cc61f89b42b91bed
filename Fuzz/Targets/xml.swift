/// Fuzzes the XML reader and the GPX and TCX readers on top of it: any bytes must parse or throw,
/// never crash, and whatever `ActivityFile.summarize` accepts must obey the event rules.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzXML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var depth = 0
    try? XMLReader.parse(bytes) { event in
        switch event {
        case .start: depth += 1
        case .end: depth -= 1
        case .text: break
        }
        precondition(depth >= 0 && depth <= ActivityLimits.maxXMLDepth, "the reader let the nesting go out of bounds")
    }
    if let fields = try? ActivityFile.summarize(bytes) {
        do {
            try EventRules.checkPayload(.recordLogged(fields))
        } catch {
            preconditionFailure("a parsed activity breaks the event rules: \(error.reason)")
        }
    }
    return 0
}
