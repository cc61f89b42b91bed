import TallyEssentials

/// An item kept in an `ItemTable`: encoded one by one in a snapshot, with a fixed-size summary row
/// that views filter and sort on without decoding the item.
///
/// The item's own encoding (`write(to:)` / `init(reading:)`) is the one place that lays out its
/// fields; the summary is derived from the item by `summary`, the one place that chooses its columns.
public protocol SnapshotItem: Sendable, Equatable {
    associatedtype Summary: Sendable, Equatable

    /// The stream id. It never changes once the item exists.
    var id: String { get }
    /// 1, 2, 3, ... in creation order: the item at index n has number n + 1.
    var number: Int { get }
    /// The columns views read without decoding the item.
    var summary: Summary { get }
    /// Bytes of one summary row in a snapshot.
    static var summarySize: Int { get }
    /// Writes exactly `summarySize` bytes.
    static func writeSummary(_ summary: Summary, to writer: inout BinaryWriter)
    /// Reads a row written by `writeSummary` from `summarySize` bytes.
    static func readSummary(_ row: UnsafeRawBufferPointer) -> Summary
    /// `readSummary`, or nil when the row holds a value no item can have (see `SnapshotLimits`).
    static func checkedSummary(_ row: UnsafeRawBufferPointer) -> Summary?
    /// Why the item cannot have been folded from valid events (a value out of range); nil when it can.
    var snapshotProblem: String? { get }

    /// What `ItemCounts` counts of a summary row.
    static func status(_ summary: Summary) -> ItemStatus
    /// An empty item with the given number, standing in for one whose snapshot chunk was damaged
    /// (never shown: the command restarts from a full replay).
    static func placeholder(number: Int) -> Self

    /// Appends every stored property in the snapshot order.
    func write(to writer: inout BinaryWriter)
    /// Reads one item written by `write(to:)`.
    init(reading reader: inout BinaryReader) throws(SnapshotDecodingError)
}

/// The state of one item as `ItemCounts` sees it.
public struct ItemStatus: Sendable, Equatable {
    public var deleted: Bool
    public var completed: Bool
    /// Has a wait date (whether it still waits depends on the clock).
    public var waits: Bool
    public var createdAt: Int64
    /// Waits for other todos (`--after`).
    public var linked: Bool = false
}

/// How many items of a table are in each state, kept by the table through every change and stored
/// in the snapshot, so a view's footer does not scan every row to count.
public struct ItemCounts: Sendable, Equatable {
    /// Deleted items.
    public private(set) var deleted = 0
    /// Completed items that are not deleted.
    public private(set) var completed = 0
    /// True while no item was created before the one ahead of it: creation order is then position order.
    public private(set) var createdInOrder = true
    private var lastCreatedAt = Int64.min
    /// Positions of the items that are neither deleted nor completed and have a wait date (few).
    public private(set) var waiting: Set<Int> = []
    /// Positions of the items that wait for others (`--after`), in any state (few).
    public private(set) var linked: Set<Int> = []

    init() {}

    /// Counts the item appended at `position`.
    mutating func add(_ status: ItemStatus, at position: Int) {
        count(status, at: position, by: 1)
        if status.createdAt < lastCreatedAt { createdInOrder = false }
        lastCreatedAt = status.createdAt
    }

    /// Counts a change of the item at `position`.
    mutating func replace(_ before: ItemStatus, with after: ItemStatus, at position: Int) {
        count(before, at: position, by: -1)
        count(after, at: position, by: 1)
        if before.createdAt != after.createdAt { createdInOrder = false }
    }

    private mutating func count(_ status: ItemStatus, at position: Int, by step: Int) {
        if status.linked {
            if step > 0 { linked.insert(position) } else { linked.remove(position) }
        }
        if status.deleted {
            deleted += step
        } else if status.completed {
            completed += step
        } else if status.waits {
            if step > 0 { waiting.insert(position) } else { waiting.remove(position) }
        }
    }

    /// The deleted and completed counts, the order flag, the last creation time, then the waiting positions in order.
    func write(to writer: inout BinaryWriter) {
        writer.fixed32(deleted)
        writer.fixed32(completed)
        writer.byte(createdInOrder ? 1 : 0)
        writer.fixed(lastCreatedAt)
        writer.fixed32(waiting.count)
        for position in waiting.sorted() { writer.fixed32(position) }
        writer.fixed32(linked.count)
        for position in linked.sorted() { writer.fixed32(position) }
    }

    /// Reads what `write` wrote for a table of `total` items.
    init(reading reader: inout BinaryReader, total: Int) throws(SnapshotDecodingError) {
        deleted = try reader.fixed32()
        completed = try reader.fixed32()
        createdInOrder = try reader.bool()
        lastCreatedAt = Int64(littleEndian: try reader.raw(8).loadUnaligned(as: Int64.self))
        let waits = try reader.fixed32()
        guard deleted + completed + waits <= total else { throw reader.failure("the counts exceed the items") }
        waiting.reserveCapacity(waits)
        for _ in 0..<waits {
            let position = try reader.fixed32()
            guard position < total else { throw reader.failure("a waiting position is out of range") }
            waiting.insert(position)
        }
        let links = try reader.fixed32()
        guard links <= total else { throw reader.failure("the counts exceed the items") }
        for _ in 0..<links {
            let position = try reader.fixed32()
            guard position < total else { throw reader.failure("a linked position is out of range") }
            linked.insert(position)
        }
    }
}

/// The columns of a todo that `list` filters and sorts on, in a 26-byte row.
public struct TodoSummary: Sendable, Equatable {
    public var deleted: Bool
    public var completed: Bool
    public var priority: Priority?
    public var due: Due?
    public var createdAt: Int64
    public var updatedAt: Int64
    /// Whether the todo has a wait date (whether it still waits depends on the clock).
    public var waits: Bool = false
    /// Whether the todo waits for other todos (`--after`).
    public var linked: Bool = false
}

extension Todo: SnapshotItem {
    public var summary: TodoSummary {
        TodoSummary(deleted: deleted, completed: completed, priority: priority, due: due, createdAt: createdAt, updatedAt: updatedAt, waits: wait != nil, linked: !after.isEmpty)
    }

    public static var summarySize: Int { 26 }

    public static func status(_ summary: TodoSummary) -> ItemStatus {
        ItemStatus(deleted: summary.deleted, completed: summary.completed, waits: summary.waits, createdAt: summary.createdAt, linked: summary.linked)
    }

    public static func placeholder(number: Int) -> Todo {
        Todo(id: "", number: number, title: "", createdAt: 0, updatedAt: 0)
    }

    /// A flags byte (bit 0 deleted, bit 1 completed, bits 2–3 the due kind: 0 none, 1 date, 2 instant,
    /// bit 4 a wait date, bit 5 waits for other todos),
    /// the priority rank (0 for none), then `createdAt`, `updatedAt` and the due value as little-endian
    /// 64-bit integers (a date packed as `year << 9 | month << 5 | day`).
    public static func writeSummary(_ summary: TodoSummary, to writer: inout BinaryWriter) {
        var flags: UInt8 = (summary.deleted ? 1 : 0) | (summary.completed ? 2 : 0) | (summary.waits ? 1 << 4 : 0) | (summary.linked ? 1 << 5 : 0)
        var due: Int64 = 0
        switch summary.due {
        case .date(let date)?:
            flags |= 1 << 2
            due = Int64(date.year) << 9 | Int64(date.month) << 5 | Int64(date.day)
        case .instant(let ms)?:
            flags |= 2 << 2
            due = ms
        case nil:
            break
        }
        writer.byte(flags)
        writer.byte(UInt8(summary.priority?.rank ?? 0))
        writer.fixed(summary.createdAt)
        writer.fixed(summary.updatedAt)
        writer.fixed(due)
    }

    /// Unknown flag bits, an unknown due kind or priority rank, a date that does not exist, and
    /// instants out of range are refused.
    @inline(__always)
    public static func checkedSummary(_ row: UnsafeRawBufferPointer) -> TodoSummary? {
        let flags = row[0]
        guard flags & 0xC0 == 0, flags >> 2 & 3 != 3, row[1] <= 3 else { return nil }
        let summary = readSummary(row)
        guard SnapshotLimits.instants.contains(summary.createdAt), SnapshotLimits.instants.contains(summary.updatedAt) else { return nil }
        switch (flags >> 2 & 3, summary.due) {
        case (0, nil), (1, .date?): return summary
        case (2, .instant(let ms)?): return SnapshotLimits.instants.contains(ms) ? summary : nil
        default: return nil
        }
    }

    public static func readSummary(_ row: UnsafeRawBufferPointer) -> TodoSummary {
        let flags = row[0]
        let dueValue = Int64(littleEndian: row.loadUnaligned(fromByteOffset: 18, as: Int64.self))
        let due: Due? = switch flags >> 2 & 3 {
        case 1: LocalDate(year: Int(dueValue >> 9), month: Int(dueValue >> 5 & 0xF), day: Int(dueValue & 0x1F)).map(Due.date)
        case 2: .instant(dueValue)
        default: nil
        }
        return TodoSummary(
            deleted: flags & 1 != 0, completed: flags & 2 != 0,
            priority: Priority.allCases.first { $0.rank == Int(row[1]) }, due: due,
            createdAt: Int64(littleEndian: row.loadUnaligned(fromByteOffset: 2, as: Int64.self)),
            updatedAt: Int64(littleEndian: row.loadUnaligned(fromByteOffset: 10, as: Int64.self)),
            waits: flags & 1 << 4 != 0, linked: flags & 1 << 5 != 0
        )
    }
}

/// Records are few and listed by a full scan: their summary row is the deleted flag alone.
public struct RecordSummary: Sendable, Equatable {
    public var deleted: Bool
}

extension Record: SnapshotItem {
    public var summary: RecordSummary { RecordSummary(deleted: deleted) }

    public static var summarySize: Int { 1 }

    public static func status(_ summary: RecordSummary) -> ItemStatus {
        ItemStatus(deleted: summary.deleted, completed: false, waits: false, createdAt: 0)
    }

    public static func placeholder(number: Int) -> Record {
        Record(id: "", number: number, name: "", category: "", durationSeconds: 0, date: 0, createdAt: 0, updatedAt: 0)
    }

    public static func writeSummary(_ summary: RecordSummary, to writer: inout BinaryWriter) {
        writer.bool(summary.deleted)
    }

    /// A deleted flag that is neither 0 nor 1 is refused.
    public static func checkedSummary(_ row: UnsafeRawBufferPointer) -> RecordSummary? {
        row[0] <= 1 ? readSummary(row) : nil
    }

    public static func readSummary(_ row: UnsafeRawBufferPointer) -> RecordSummary {
        RecordSummary(deleted: row[0] != 0)
    }
}
