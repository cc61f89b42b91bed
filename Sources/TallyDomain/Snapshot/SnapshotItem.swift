/// An item kept in an `ItemTable`: encoded one by one in a snapshot, with a fixed-size summary row
/// that views filter and sort on without decoding the item.
///
/// The item's own encoding (`write(to:)` / `init(reading:)`) is the one place that lays out its
/// fields; the summary is derived from the item by `summary`, the one place that chooses its columns.
public protocol SnapshotItem: Sendable, Equatable {
    associatedtype Summary: Sendable, Equatable

    /// The stream id. It never changes once the item exists.
    var id: String { get }
    /// The columns views read without decoding the item.
    var summary: Summary { get }
    /// Bytes of one summary row in a snapshot.
    static var summarySize: Int { get }
    /// Writes exactly `summarySize` bytes.
    static func writeSummary(_ summary: Summary, to writer: inout BinaryWriter)
    /// Reads a row written by `writeSummary` from `summarySize` bytes.
    static func readSummary(_ row: UnsafeRawBufferPointer) -> Summary

    /// Appends every stored property in the snapshot order.
    func write(to writer: inout BinaryWriter)
    /// Reads one item written by `write(to:)`.
    init(reading reader: inout BinaryReader) throws(SnapshotDecodingError)
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
}

extension Todo: SnapshotItem {
    public var summary: TodoSummary {
        TodoSummary(deleted: deleted, completed: completed, priority: priority, due: due, createdAt: createdAt, updatedAt: updatedAt, waits: wait != nil)
    }

    public static var summarySize: Int { 26 }

    /// A flags byte (bit 0 deleted, bit 1 completed, bits 2–3 the due kind: 0 none, 1 date, 2 instant,
    /// bit 4 a wait date),
    /// the priority rank (0 for none), then `createdAt`, `updatedAt` and the due value as little-endian
    /// 64-bit integers (a date packed as `year << 9 | month << 5 | day`).
    public static func writeSummary(_ summary: TodoSummary, to writer: inout BinaryWriter) {
        var flags: UInt8 = (summary.deleted ? 1 : 0) | (summary.completed ? 2 : 0) | (summary.waits ? 1 << 4 : 0)
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
            waits: flags & 1 << 4 != 0
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

    public static func writeSummary(_ summary: RecordSummary, to writer: inout BinaryWriter) {
        writer.bool(summary.deleted)
    }

    public static func readSummary(_ row: UnsafeRawBufferPointer) -> RecordSummary {
        RecordSummary(deleted: row[0] != 0)
    }
}
