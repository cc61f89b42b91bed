/// Fuzzes the FIT decoder, structure-aware: an input whose first byte is odd drives
/// `HostileActivityFiles` (valid header, definitions and CRCs, hostile field values); any other is
/// read as a FIT file as it is. Either way the file must be refused with a reason, or accepted as a
/// record inside the limits whose exported event imports unchanged (`ActivityFileInvariant`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFIT(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let file = FuzzActivityInput.file(format: "fit", Array(UnsafeBufferPointer(start: data, count: size)))
    if let violation = ActivityFileInvariant.violation(file) { preconditionFailure(violation) }
    return 0
}
