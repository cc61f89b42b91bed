
/// How a stored blob's bytes are encoded; the blob's name is always the SHA-256 of the decoded content.
public enum BlobEncoding: String, Sendable, CaseIterable {
    /// The content as it is.
    case identity
    /// The content gzipped (an original `.gpx.gz` or `.fit.gz` kept as it came).
    case gzip
}

/// One original file, content-addressed.
public struct Blob: Sendable, Equatable {
    /// Lowercase hex SHA-256 of the decoded content.
    public var sha256: String
    public var encoding: BlobEncoding
    /// The stored bytes (encoded by `encoding`).
    public var bytes: [UInt8]

    public init(sha256: String, encoding: BlobEncoding, bytes: [UInt8]) {
        self.sha256 = sha256
        self.encoding = encoding
        self.bytes = bytes
    }
}

/// Where the original activity files are kept, each once, named by the SHA-256 of its content
/// (which the `record.logged` event carries, so the log's hash chain covers it).
///
/// Blobs are only ever added; a blob already present is left as it is. Checking that the bytes
/// match the name is the caller's job (it alone can decompress). Not thread-safe.
public protocol BlobStore: AnyObject {
    /// True when a blob with this name is stored.
    func containsBlob(_ sha256: String) throws(EventLogError) -> Bool

    /// Stores a blob unless one with its name is there. Runs in the current write transaction
    /// (so it commits or rolls back with the command's events), or in its own.
    func putBlob(_ blob: Blob) throws(EventLogError)

    /// The stored blob, or nil.
    func blob(_ sha256: String) throws(EventLogError) -> Blob?

    /// The names of every stored blob, sorted.
    func blobNames() throws(EventLogError) -> [String]
}
