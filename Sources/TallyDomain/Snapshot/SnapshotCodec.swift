import TallyEssentials

/// What a snapshot body says about itself, ahead of the read models.
public struct SnapshotHeader: Sendable, Equatable {
    /// Layout version of the body (`SnapshotCodec.format` when written).
    public var format: Int
    /// `Reducer.version` of the code that folded the models.
    public var reducerVersion: Int
    /// The log position the models are folded up to (`ReadModel.position`).
    public var position: Int64
    /// The largest `recorded_at` among the events folded in; decides whether an `--as-of` instant may start here.
    public var latestRecordedAt: Int64
    /// The chain hash of the event at `position`, binding the snapshot to this log's history.
    public var logHash: String

    public init(format: Int = SnapshotCodec.format, reducerVersion: Int = Reducer.version, position: Int64, latestRecordedAt: Int64, logHash: String) {
        self.format = format
        self.reducerVersion = reducerVersion
        self.position = position
        self.latestRecordedAt = latestRecordedAt
        self.logHash = logHash
    }
}

/// The compact binary encoding of all read models stored in a snapshot.
///
/// Layout: the magic bytes `TSNP`, the header fields in declaration order, then the read
/// models as `ReadModel.write(to:)` lays them out (see `ReadModel+Snapshot.swift`). The
/// encoding is deterministic: equal models give equal bytes.
public enum SnapshotCodec {
    /// Bump whenever the layout changes (a field added, removed, reordered or re-encoded).
    ///
    /// `SnapshotCodecTests` pins the bytes of a fixed model to this number.
    public static let format = 11

    static let magic: [UInt8] = Array("TSNP".utf8)

    /// The body of a snapshot of `model`, marked as folded by `reducerVersion` (a test pins the
    /// layout under a fixed one, since a reducer change alone does not change the layout).
    /// - Complexity: O(size of the models).
    public static func encode(_ model: ReadModel, latestRecordedAt: Int64, logHash: String, reducerVersion: Int = Reducer.version) -> [UInt8] {
        var writer = BinaryWriter(capacity: 64 + model.todos.count * 96)
        writer.raw(magic)
        let header = SnapshotHeader(reducerVersion: reducerVersion, position: model.position, latestRecordedAt: latestRecordedAt, logHash: logHash)
        header.write(to: &writer)
        model.write(to: &writer)
        return writer.bytes
    }

    /// Reads only the header, for callers that reject a snapshot before decoding the models.
    public static func header(_ bytes: UnsafeRawBufferPointer) throws(SnapshotDecodingError) -> SnapshotHeader {
        var reader = BinaryReader(bytes)
        return try readHeader(&reader)
    }

    /// The header of a buffer, reading only the chunk it lies in.
    public static func header(_ buffer: SnapshotBuffer) throws(SnapshotDecodingError) -> SnapshotHeader {
        var reader = BinaryReader(buffer)
        return try readHeader(&reader)
    }

    /// Opens a whole body: copies it once and checks its structure; the items stay encoded in the
    /// copy until read (see `ItemTable`). Fails on a format it does not know, on a malformed table and
    /// on trailing bytes; an item's own bytes are checked when it is read, and by `ItemTable.damage()`.
    /// - Complexity: O(size of the body) for the copy, O(items) for the structure check.
    public static func decode(_ bytes: UnsafeRawBufferPointer) throws(SnapshotDecodingError) -> (header: SnapshotHeader, model: ReadModel) {
        _ = try header(bytes)
        return try decode(SnapshotBuffer(copying: bytes))
    }

    /// Opens a body in its own buffer, which the models keep and read in place: no copy at all.
    /// - Complexity: O(items) for the structure check.
    /// A buffer read chunk by chunk is touched only where the structure lies (the header, each
    /// table's counts and id index frame, the trailer).
    public static func decode(_ buffer: SnapshotBuffer) throws(SnapshotDecodingError) -> (header: SnapshotHeader, model: ReadModel) {
        var reader = BinaryReader(buffer)
        let header = try readHeader(&reader)
        let model = try ReadModel(reading: &reader, in: buffer)
        guard reader.isAtEnd else { throw reader.failure("trailing bytes after the read models") }
        guard model.position == header.position else {
            throw reader.failure("the models are at position \(model.position), the header says \(header.position)")
        }
        return (header, model)
    }

    /// `decode` over an array.
    public static func decode(_ bytes: [UInt8]) throws(SnapshotDecodingError) -> (header: SnapshotHeader, model: ReadModel) {
        let result = bytes.withUnsafeBytes { buffer -> Result<(header: SnapshotHeader, model: ReadModel), SnapshotDecodingError> in
            do throws(SnapshotDecodingError) {
                return .success(try decode(buffer))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Checks the magic bytes and the format, then reads the header fields.
    private static func readHeader(_ reader: inout BinaryReader) throws(SnapshotDecodingError) -> SnapshotHeader {
        guard let start = try? reader.raw(magic.count), start.elementsEqual(magic) else {
            throw SnapshotDecodingError(offset: 0, reason: "not a snapshot body")
        }
        let format = try reader.natural()
        guard format == Self.format else { throw reader.failure("unknown snapshot format \(format)") }
        return SnapshotHeader(
            format: format,
            reducerVersion: try reader.natural(),
            position: try reader.int(),
            latestRecordedAt: try reader.int(),
            logHash: try reader.string()
        )
    }
}

extension SnapshotHeader {
    /// Appends the header fields in declaration order.
    func write(to writer: inout BinaryWriter) {
        writer.count(format)
        writer.count(reducerVersion)
        writer.int(position)
        writer.int(latestRecordedAt)
        writer.string(logHash)
    }
}
