import TallyEssentials

/// A map from stream ids to numbers (a stream's last version) for a hot path that looks one up
/// per event: the bulk import.
///
/// Lowercase UUIDs are keyed by their 16 packed bytes, stored inline in the table; a `String` key
/// of 36 characters lives in its own allocation, so each probe chased a pointer, hashed 36 bytes
/// and compared them. Other ids (saved views, history markers) are few and keep their text.
public struct UUIDKeyedMap: Sendable {
    private struct Key: Hashable, Sendable {
        var high: UInt64
        var low: UInt64
    }

    private var uuids: [Key: Int] = [:]
    private var others: [String: Int] = [:]

    public init() {}

    public subscript(id: String) -> Int? {
        get {
            if let packed = UUIDBytes.pack(id) { return uuids[Key(high: packed.0, low: packed.1)] }
            return others[id]
        }
        set {
            if let packed = UUIDBytes.pack(id) {
                uuids[Key(high: packed.0, low: packed.1)] = newValue
            } else {
                others[id] = newValue
            }
        }
    }
}
