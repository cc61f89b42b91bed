/// Fuzzes the GPX reader, structure-aware: the input drives `HostileActivityFiles.gpx` (well-formed
/// XML of GPX's shape, hostile coordinates, heights, times and names); the file must be refused with
/// a reason or accepted inside the limits with an event that survives export and import.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPX(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let file = FuzzActivityInput.file(format: "gpx", Array(UnsafeBufferPointer(start: data, count: size)))
    if let violation = ActivityFileInvariant.violation(file) { preconditionFailure(violation) }
    return 0
}
