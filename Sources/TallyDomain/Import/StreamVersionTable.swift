/// The last version of each stream an import has seen.
///
/// UUID streams are keyed by their 16 packed bytes, stored inline in the table: a bulk import
/// looks a stream up for every event, and `String` keys of 36 characters live in separate
/// allocations, so each probe chased a pointer and compared the text. Other streams (saved views,
/// history markers) are few and keep their text as the key.
public struct StreamVersionTable {
    private struct Key: Hashable {
        var high: UInt64
        var low: UInt64
    }

    private var uuids: [Key: Int] = [:]
    private var others: [String: Int] = [:]

    public init() {}

    public subscript(stream: String) -> Int? {
        get {
            if let packed = UUIDBytes.pack(stream) { return uuids[Key(high: packed.0, low: packed.1)] }
            return others[stream]
        }
        set {
            if let packed = UUIDBytes.pack(stream) {
                uuids[Key(high: packed.0, low: packed.1)] = newValue
            } else {
                others[stream] = newValue
            }
        }
    }
}
