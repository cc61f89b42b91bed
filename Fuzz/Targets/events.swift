/// Fuzzes the event decoder: the first line is the event type, the rest its payload.
/// Decoding must succeed or throw `EventDecodingError`, and a decoded event must re-encode to an equal event.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEvents(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    guard let newline = text.firstIndex(of: "\n") else { return 0 }
    let type = String(text[..<newline])
    let payload = String(text[text.index(after: newline)...])
    guard case .object(let object)? = try? JSON.parse(payload) else { return 0 }
    guard let event = try? EventCatalog.decode(type: type, schema: 1, data: object) else { return 0 }
    let encoded = EventCatalog.payload(of: event)
    let again = try? EventCatalog.decode(type: EventCatalog.typeName(of: event), schema: 1, data: encoded)
    precondition(again == event, "\(type) does not survive re-encoding")
    var model = ReadModel()
    Reducer.evolve(&model, event, stream: "s", version: 1, seq: 1, at: 0)
    return 0
}
