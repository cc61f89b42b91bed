import TallyEssentials

/// The items of one kind (todos or records) in creation order: `table[n - 1].number == n`.
///
/// Items loaded from a snapshot stay encoded in the snapshot's bytes (`base`) and are decoded one at
/// a time when asked for; items the tail created or changed live in a small overlay (`appended`,
/// `changed`). So opening a snapshot costs a check of its tables' frames (reading only the chunks
/// they lie in, see `SnapshotBuffer`), not a decode of every item, and a command pays for the
/// items it touches. The counts of items in each state are kept through every change. A table folded from events
/// alone (a replay, a rebuild) has no base and is a plain array with a dictionary index.
///
/// Only `Reducer.evolve` changes the tables of a `ReadModel`; equality compares the items.
public struct ItemTable<Item: SnapshotItem>: Sendable {
    /// The items stored in a snapshot, read in place; nil when the table was folded from events alone.
    private var base: ItemColumns<Item>?
    /// Base items changed since the snapshot, by index.
    private var changed: [Int: Item] = [:]
    /// Items created after the snapshot; the first has index `baseCount`.
    private var appended: [Item] = []
    /// Packed id to index for the appended items whose id is a lowercase UUID (the base's are in its UUID index).
    private var uuidIndex: [UUIDKey: Int] = [:]
    /// Id to index for every item whose id is not a lowercase UUID, base and appended.
    private var otherIndex: [String: Int] = [:]
    /// How many items are in each state, kept up to date by every change (stored in the snapshot).
    public private(set) var counts = ItemCounts()

    public init() {}

    /// True when a chunk of the snapshot this table reads from was damaged: nothing read from it may be trusted.
    public var isPoisoned: Bool { base?.buffer.isPoisoned ?? false }

    /// The snapshot buffer the stored items are read from; nil for a table folded from events alone.
    public var buffer: SnapshotBuffer? { base?.buffer }

    private var baseCount: Int { base?.count ?? 0 }

    /// The item with the given stream id.
    /// - Complexity: O(1) for items created after the snapshot, O(log n) for the others.
    public func position(of id: String) -> Int? {
        guard let packed = UUIDBytes.pack(id) else { return otherIndex[id] }
        return position(of: UUIDKey(packed))
    }

    /// The item with the given stream id, found by its packed bytes when it is a UUID.
    /// - Complexity: like `position(of:)` for a `String`, without making one for a UUID.
    @inline(__always)
    func position(of key: StreamKey) -> Int? {
        guard let uuid = key.uuid else { return otherIndex.isEmpty ? nil : otherIndex[key.string] }
        return position(of: uuid)
    }

    @inline(__always)
    private func position(of uuid: UUIDKey) -> Int? {
        if let found = uuidIndex[uuid] { return found }
        return base?.find(uuid.packed)
    }

    /// The columns of item `position` that views filter and sort on, read without decoding the item.
    /// - Complexity: O(1)
    @inline(__always)
    public func summary(at position: Int) -> Item.Summary {
        if position >= baseCount { return appended[position - baseCount].summary }
        if !changed.isEmpty, let item = changed[position] { return item.summary }
        return base!.summary(position)
    }

    mutating func reserveCapacity(_ count: Int) {
        appended.reserveCapacity(count)
        uuidIndex.reserveCapacity(count)
    }

    /// Adds an item after the last one.
    mutating func append(_ item: consuming Item) {
        append(item, uuid: UUIDBytes.pack(item.id).map(UUIDKey.init))
    }

    /// Adds an item after the last one, given its id packed (nil when the id is not a lowercase UUID).
    mutating func append(_ item: consuming Item, uuid: UUIDKey?) {
        counts.add(Item.status(item.summary), at: count)
        if let uuid { uuidIndex[uuid] = count } else { otherIndex[item.id] = count }
        appended.append(item)
    }

    /// Changes the item with the given id in place; nothing when there is none.
    mutating func update(id: String, _ change: (inout Item) -> Void) {
        guard let position = position(of: id) else { return }
        update(at: position, change)
    }

    /// Changes the item at `position` in place.
    mutating func update(at position: Int, _ change: (inout Item) -> Void) {
        let before = Item.status(summary(at: position))
        if position >= baseCount {
            change(&appended[position - baseCount])
        } else {
            var item = self[position]
            change(&item)
            changed[position] = item
        }
        counts.replace(before, with: Item.status(summary(at: position)), at: position)
    }
}

extension ItemTable: RandomAccessCollection, MutableCollection {
    public var startIndex: Int { 0 }
    public var endIndex: Int { baseCount + appended.count }

    /// The item at `position`, decoded from the snapshot when it has not changed since.
    /// Setting one replaces it; its id must stay the same.
    /// - Complexity: O(size of the item)
    public subscript(position: Int) -> Item {
        get {
            if position >= baseCount { return appended[position - baseCount] }
            if !changed.isEmpty, let item = changed[position] { return item }
            precondition(position >= 0, "index out of range")
            return base!.item(position)
        }
        set {
            let before = Item.status(summary(at: position))
            if position >= baseCount {
                appended[position - baseCount] = newValue
            } else {
                precondition(position >= 0, "index out of range")
                changed[position] = newValue
            }
            counts.replace(before, with: Item.status(newValue.summary), at: position)
        }
    }
}

extension ItemTable: Equatable {
    /// Equal when they hold equal items in the same order, however each is stored.
    public static func == (lhs: ItemTable, rhs: ItemTable) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }
}

extension ItemTable: CustomReflectable {
    /// Reflects as the list of items, so dumps and diffs show content, not storage.
    public var customMirror: Mirror {
        Mirror(self, unlabeledChildren: Array(self), displayStyle: .collection)
    }
}

extension ItemTable {
    /// Every id with its index, as a dictionary (for dumps and checks, not for lookups).
    /// - Complexity: O(n)
    public var idIndex: [String: Int] {
        var result: [String: Int] = [:]
        for position in indices { result[self[position].id] = position }
        return result
    }

    /// Decodes every item and checks that the stored indexes agree with them; the first problem, or nil.
    ///
    /// Start-up checks only the tables' structure (and the body's checksum); `verify` calls this.
    /// - Complexity: O(n log n)
    public func damage() -> String? {
        guard let base else { return nil }
        if base.buffer.isPoisoned { return "a chunk of the body does not match its checksum" }
        var recount = ItemCounts()
        for position in indices { recount.add(Item.status(summary(at: position)), at: position) }
        if recount != counts { return "the stored counts do not match the items" }
        if let unsorted = base.firstUnsortedKey() { return "the id index is not sorted at entry \(unsorted)" }
        for position in 0..<base.count {
            let item: Item
            switch base.checked(position) {
            case .success(let value): item = value
            case .failure(let error): return error.reason
            }
            guard self.position(of: item.id) == position else { return "the id index does not lead to item \(position + 1)" }
        }
        if let forgery = base.buffer.forgery { return forgery }
        return base.buffer.isPoisoned ? "a chunk of the body does not match its checksum" : nil
    }
}

// MARK: - Snapshot layout

extension ItemTable {
    /// Appends the table in the layout `init(reading:)` reads in place:
    ///
    /// - the item count n (32-bit little-endian, like every fixed-width number here);
    /// - the counts (`ItemCounts.write`): deleted, completed, whether creation times never
    ///   decrease, and the positions of the live items with a wait date;
    /// - n + 1 offsets of the items in the item area;
    /// - n summary rows of `Item.summarySize` bytes;
    /// - the UUID index: a count, then 20-byte entries (the id's 16 packed bytes, the item's
    ///   index), sorted by the packed bytes, so a lookup is a binary search;
    /// - the other ids (not lowercase UUIDs): a varint count, then each id and index, by index;
    /// - the item area: each item as `Item.write(to:)` encodes it.
    ///
    /// Items unchanged since the snapshot are copied as the bytes they were read from.
    /// - Complexity: O(n log n) for the index, O(size) for the rest.
    func write(to writer: inout BinaryWriter) {
        let total = count
        var area = BinaryWriter(capacity: base.map { $0.areaSize + appended.count * 96 } ?? total * 96)
        var offsets: [Int] = []
        offsets.reserveCapacity(total + 1)
        for position in 0..<total {
            offsets.append(area.count)
            if position >= baseCount {
                // Borrowed in place: `self[position]` would copy the item (a retain per field).
                appended[position - baseCount].write(to: &area)
            } else if changed[position] == nil {
                area.raw(base!.itemBytes(position))
            } else {
                self[position].write(to: &area)
            }
        }
        offsets.append(area.count)

        writer.fixed32(total)
        counts.write(to: &writer)
        for offset in offsets { writer.fixed32(offset) }
        for position in 0..<total {
            if position >= baseCount {
                Item.writeSummary(appended[position - baseCount].summary, to: &writer)
            } else if changed[position] == nil {
                writer.raw(base!.summaryBytes(position))
            } else {
                Item.writeSummary(self[position].summary, to: &writer)
            }
        }

        var keys: [(high: UInt64, low: UInt64, position: Int)] = []
        var others: [(id: String, position: Int)] = []
        keys.reserveCapacity(total)
        if let base { base.forEachKey { keys.append($0) } }
        for (uuid, position) in uuidIndex {
            keys.append((UInt64(bigEndian: uuid.high), UInt64(bigEndian: uuid.low), position))
        }
        for (id, position) in otherIndex { others.append((id, position)) }
        keys.sort { ($0.high, $0.low) < ($1.high, $1.low) }
        others.sort { $0.position < $1.position }
        writer.fixed32(keys.count)
        for key in keys {
            withUnsafeBytes(of: key.high.bigEndian) { writer.raw($0) }
            withUnsafeBytes(of: key.low.bigEndian) { writer.raw($0) }
            writer.fixed32(key.position)
        }
        writer.count(others.count)
        for other in others {
            writer.string(other.id)
            writer.count(other.position)
        }
        writer.raw(area.bytes)
    }

    /// Takes a table written by `write(to:)` in place: checks its structure (offsets in order and
    /// inside the area, index entries in range and sorted, one index entry per item) without
    /// decoding the items.
    /// - Complexity: O(n)
    init(reading reader: inout BinaryReader, in buffer: SnapshotBuffer) throws(SnapshotDecodingError) {
        self.init()
        let total = try reader.fixed32()
        guard total <= (buffer.bytes.count - reader.offset) / 4 else { throw reader.failure("item count \(total) exceeds the data") }
        let counts = try ItemCounts(reading: &reader, total: total)
        let offsets = try reader.skip(4 * (total + 1))
        let summaries = try reader.skip(total * Item.summarySize)
        let keyCount = try reader.fixed32()
        guard keyCount <= total else { throw reader.failure("more index entries than items") }
        let keys = try reader.skip(20 * keyCount)
        var others: [String: Int] = [:]
        for _ in 0..<(try reader.count()) {
            let id = try reader.string()
            let position = try reader.natural()
            guard position < total, others.updateValue(position, forKey: id) == nil else { throw reader.failure("bad entry in the id index") }
        }
        guard keyCount + others.count == total else { throw reader.failure("the id index does not cover every item") }
        let columns = ItemColumns<Item>(buffer: buffer, count: total, offsets: offsets, summaries: summaries, keys: keys, keyCount: keyCount, area: reader.offset)
        try columns.checkStructure(reader.offset)
        _ = try reader.skip(columns.areaSize)
        base = total > 0 ? columns : nil
        otherIndex = others
        self.counts = counts
    }
}

/// The tables of one `ItemTable` inside a snapshot body, read in place.
struct ItemColumns<Item: SnapshotItem>: @unchecked Sendable {
    let buffer: SnapshotBuffer
    let count: Int
    /// Byte positions in `buffer` of the offset table, the summary rows, the UUID index and the item area.
    let offsets: Int
    let summaries: Int
    let keys: Int
    let keyCount: Int
    let area: Int

    private var bytes: UnsafeRawBufferPointer { buffer.bytes }

    @inline(__always)
    private func load32(_ at: Int) -> Int {
        buffer.touch(at, 4)
        return Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
    }

    @inline(__always)
    private func offset(_ position: Int) -> Int { load32(offsets + 4 * position) }

    var areaSize: Int { offset(count) }

    /// The encoded bytes of item `position`; empty (so it fails to decode) when its offsets are out of order.
    func itemBytes(_ position: Int) -> UnsafeRawBufferPointer {
        let (start, end) = (offset(position), offset(position + 1))
        guard start <= end, end <= areaSize else { return UnsafeRawBufferPointer(rebasing: bytes[area ..< area]) }
        buffer.touch(area + start, end - start)
        return UnsafeRawBufferPointer(rebasing: bytes[area + start ..< area + end])
    }

    func summaryBytes(_ position: Int) -> UnsafeRawBufferPointer {
        let start = summaries + position * Item.summarySize
        buffer.touch(start, Item.summarySize)
        return UnsafeRawBufferPointer(rebasing: bytes[start ..< start + Item.summarySize])
    }

    /// The summary row of item `position`; a row no item can have rejects the buffer and reads as a placeholder's.
    @inline(__always)
    func summary(_ position: Int) -> Item.Summary {
        guard let summary = Item.checkedSummary(summaryBytes(position)) else {
            buffer.reject("the summary row of item \(position + 1) is out of range")
            return Item.placeholder(number: position + 1).summary
        }
        return summary
    }

    /// Item `position`, or nil when its bytes do not decode to exactly one item.
    func decoded(_ position: Int) -> Item? {
        var reader = BinaryReader(itemBytes(position))
        guard let item = try? Item(reading: &reader), reader.isAtEnd else { return nil }
        return item
    }

    /// Item `position` when it decodes, has its number, holds only values valid events can produce
    /// (`SnapshotItem.snapshotProblem`) and matches its summary row; otherwise why not.
    func checked(_ position: Int) -> Result<Item, SnapshotDecodingError> {
        func refuse(_ reason: String) -> Result<Item, SnapshotDecodingError> {
            .failure(SnapshotDecodingError(offset: area, reason: "item \(position + 1) " + reason))
        }
        guard let item = decoded(position) else { return refuse("does not decode") }
        guard item.number == position + 1 else { return refuse("claims number \(item.number)") }
        if let problem = item.snapshotProblem { return refuse("is out of range: " + problem) }
        guard Item.checkedSummary(summaryBytes(position)) == item.summary else { return refuse("does not match its summary row") }
        return .success(item)
    }

    /// Item `position`. Each chunk matched its checksum when it was read, so an item that fails
    /// `checked` means a body forged with valid checksums: it rejects the buffer (see
    /// `SnapshotBuffer.reject`) and a placeholder stands in, as for a damaged chunk; the application
    /// restarts the command from a full replay before it uses anything read here.
    func item(_ position: Int) -> Item {
        switch checked(position) {
        case .success(let item):
            return item
        case .failure(let error):
            if !buffer.isPoisoned { buffer.reject(error.reason) }
            return Item.placeholder(number: position + 1)
        }
    }

    /// True when the stored item at `position` has the packed UUID `packed` as its id (its first
    /// field, read without decoding the rest).
    private func hasID(_ position: Int, _ packed: UUIDBytes.Packed) -> Bool {
        var reader = BinaryReader(itemBytes(position))
        guard let id = try? reader.identifier(), let stored = UUIDBytes.pack(id) else { return false }
        return stored == packed
    }

    private func key(_ entry: Int) -> (high: UInt64, low: UInt64) {
        let at = keys + 20 * entry
        buffer.touch(at, 20)
        return (UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)),
                UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self)))
    }

    /// The index of the item whose id packs to `packed`, by binary search of the UUID index.
    /// - Complexity: O(log n)
    func find(_ packed: UUIDBytes.Packed) -> Int? {
        let wanted = (UInt64(bigEndian: packed.0), UInt64(bigEndian: packed.1))
        var low = 0
        var high = keyCount
        while low < high {
            let middle = (low + high) / 2
            let found = key(middle)
            if found == wanted {
                let position = load32(keys + 20 * middle + 16)
                guard position < count, hasID(position, packed) else {
                    buffer.reject("the id index leads to the wrong item")
                    return nil
                }
                return position
            }
            if found < wanted { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// The first index entry not strictly after the one before it, or nil when the index is sorted.
    func firstUnsortedKey() -> Int? {
        guard keyCount > 1 else { return nil }
        for entry in 1..<keyCount where !(key(entry - 1) < key(entry)) { return entry }
        return nil
    }

    func forEachKey(_ body: ((high: UInt64, low: UInt64, position: Int)) -> Void) {
        for entry in 0..<keyCount {
            let (high, low) = key(entry)
            body((high, low, load32(keys + 20 * entry + 16)))
        }
    }

    /// The first offset is 0 and the last ends inside the body. Each item's own offsets are checked
    /// when it is read, and each index entry when a search lands on it, so opening stays O(1);
    /// `ItemTable.damage()` (run by `verify`) checks every one.
    func checkStructure(_ at: Int) throws(SnapshotDecodingError) {
        func failure(_ reason: String) -> SnapshotDecodingError { SnapshotDecodingError(offset: at, reason: reason) }
        guard offset(0) == 0 else { throw failure("the first item does not start the area") }
        guard areaSize <= bytes.count - area, count == 0 || areaSize >= count else { throw failure("the item area exceeds the data") }
    }
}
