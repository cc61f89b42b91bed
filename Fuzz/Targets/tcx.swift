/// Fuzzes the TCX reader, structure-aware: the input drives `HostileActivityFiles.tcx` (well-formed
/// XML of TCX's shape, hostile numbers, times and names); the file must be refused with a reason or
/// accepted inside the limits with an event that survives export and import (`ActivityFileInvariant`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTCX(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let file = FuzzActivityInput.file(format: "tcx", Array(UnsafeBufferPointer(start: data, count: size)))
    if let violation = ActivityFileInvariant.violation(file) { preconditionFailure(violation) }
    return 0
}
