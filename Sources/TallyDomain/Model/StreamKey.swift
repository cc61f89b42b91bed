import TallyEssentials

/// A stream id as a replay reads it: the UTF-8 bytes in the store's buffer, and their 16 packed
/// bytes when the id is a lowercase UUID (every id tally makes).
///
/// The reducer looks items up by the packed bytes, so folding an event about an existing item makes
/// no `String` of its stream id, and hashing and comparing it is two words, not 36 characters.
/// Valid only while the bytes it points at are (one fold callback).
public struct StreamKey {
    /// The id's UTF-8 text.
    public let utf8: UnsafeBufferPointer<UInt8>
    /// The packed id; nil when the text is not a lowercase UUID.
    let uuid: UUIDKey?

    @inline(__always)
    public init(utf8: UnsafeBufferPointer<UInt8>) {
        self.utf8 = utf8
        uuid = UUIDBytes.pack(utf8: utf8).map(UUIDKey.init)
    }

    /// The id as a `String` (for a new item, and for streams that are not items).
    public var string: String { String(decoding: utf8, as: UTF8.self) }
}

/// The 16 bytes of a lowercase UUID, as `UUIDBytes.pack` gives them, as a dictionary key.
struct UUIDKey: Hashable {
    var high: UInt64
    var low: UInt64

    @inline(__always)
    init(_ packed: UUIDBytes.Packed) {
        high = packed.0
        low = packed.1
    }

    var packed: UUIDBytes.Packed { (high, low) }
}

extension ReadModel {
    /// Whether an item (todo or record) has this stream id.
    @inline(__always)
    func hasItem(_ key: StreamKey) -> Bool {
        todos.position(of: key) != nil || records.position(of: key) != nil
    }

    mutating func insertTodo(_ todo: consuming Todo, key: StreamKey) {
        todos.append(todo, uuid: key.uuid)
    }

    mutating func insertRecord(_ record: Record, key: StreamKey) {
        records.append(record, uuid: key.uuid)
    }

    mutating func updateTodo(key: StreamKey, _ change: (inout Todo) -> Void) {
        guard let position = todos.position(of: key) else { return }
        todos.update(at: position, change)
    }

    mutating func updateRecord(key: StreamKey, _ change: (inout Record) -> Void) {
        guard let position = records.position(of: key) else { return }
        records.update(at: position, change)
    }
}
