import TallyEngine
import TallyDomain
import TallyInterchange
import TallyEssentials

/// Writes each original activity file once, before the first exported event that names it.
final class BlobExport {
    private let store: BlobStore?
    private var written: Set<String> = []

    init(store: BlobStore?) {
        self.store = store
    }

    /// Writes the blob line `event` needs before it, if any, in pieces (without its newline); true when it wrote one.
    func write(before event: EventEnvelope, _ piece: (String) throws -> Void) throws -> Bool {
        guard let store, let sha = BlobLines.trackHash(of: event), written.insert(sha).inserted,
              let blob = try store.blob(sha) else { return false }
        try BlobLines.encode(blob, piece: piece)
        return true
    }
}

/// Reads blob lines during `import`: checks the content against the name, then stores the blob
/// in the import's transaction.
///
/// A blob is stored only when the event line right after it names it (an export writes each file just
/// before the first event that names it): a file no event names is never stored, nor counted.
final class BlobImport {
    private let store: BlobStore?
    private(set) var stored = 0
    /// The last blob line read, waiting for the event that names it.
    private var pending: Blob?

    init(store: BlobStore?) {
        self.store = store
    }

    /// Handles the line when it is a blob line; false for an event line.
    func take(_ bytes: UnsafeBufferPointer<UInt8>, line: Int) throws -> Bool {
        guard BlobLines.isBlobLine(bytes) else { return false }
        try take(Result { () throws(EventLineError) in try BlobLines.decode(bytes) }, line: line)
        return true
    }

    /// Handles a blob line read in pieces (or held whole): checks the content against the name.
    func take(_ decoded: Result<BlobLineDecoder.Decoded, EventLineError>, line: Int) throws {
        // A blob line after a blob line: the first was named by no event.
        pending = nil
        let blob: Blob
        let contentHash: String
        do {
            let line = try decoded.get()
            blob = line.blob
            contentHash = blob.encoding == .gzip ? try BlobCheck.contentHash(of: blob) : line.storedSHA256
        } catch let error as EventLineError {
            throw ImportError.malformed(line: line, reason: error.reason)
        } catch let error as GzipError {
            throw ImportError.malformed(line: line, reason: error.reason)
        }
        guard contentHash == blob.sha256 else {
            throw ImportError.malformed(line: line, reason: Catalog.english.text(.errorBlobMismatch, ["sha256": String(blob.sha256.prefix(16))]))
        }
        pending = blob
    }

    /// Lets go of a blob no event named yet: the next line is another blob line.
    func dropPending() {
        pending = nil
    }

    /// Called with every event line: stores the waiting blob when this event names it, and forgets it either way.
    func eventLine(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard let blob = pending else { return }
        pending = nil
        let name = Array("\"sha256\":\"\(blob.sha256)\"".utf8)
        guard bytes.firstRange(of: name) != nil else { return }
        if let store, try !store.containsBlob(blob.sha256) {
            try store.putBlob(blob)
            stored += 1
        }
    }
}

/// `verify`'s check of the original files: every stored file an event names still hashes to its
/// name (gunzipped when stored gzipped), so the hash chain covers the file too. A file that is not
/// stored (an export whose blob lines were left out) is no damage to the log and is not reported.
enum BlobCheck {
    static func run(_ store: any EventStore, _ catalog: Catalog) throws -> [LogProblem] {
        let log = store
        var problems: [LogProblem] = []
        var checked: Set<String> = []
        try log.scan(after: 0, through: nil) { event in
            guard let sha = BlobLines.trackHash(of: event), checked.insert(sha).inserted else { return }
            guard let blob = try store.blob(sha) else { return }
            let hash = blob.encoding == .gzip ? try? contentHash(of: blob) : SHA256.hex(SHA256.digest(blob.bytes))
            if hash != sha {
                problems.append(LogProblem(seq: event.seq, kind: .failedCheck(name: "blob", detail: catalog.text(.errorBlobMismatch, ["sha256": String(sha.prefix(16))]))))
            }
        }
        return problems
    }

    /// The SHA-256 of a gzipped blob's content, decompressed a piece at a time (never held whole).
    static func contentHash(of blob: Blob) throws(GzipError) -> String {
        var hasher = SHA256()
        try Gzip.decompressPieces(blob.bytes, limit: ActivityLimits.maxFileBytes) { hasher.update(UnsafeRawBufferPointer($0)) }
        return SHA256.hex(hasher.finalize())
    }
}
