import TallyDomain
import TallyEssentials

/// Original activity files in the `blobs` table (migration 0003), in the same transaction as the events.
extension PostgresEventLog: BlobStore {
    public func containsBlob(_ sha256: String) throws(EventLogError) -> Bool {
        guard schemaKnown else { return false }
        do {
            return try open().query("SELECT 1 FROM blobs WHERE sha256 = $1", [.text(sha256)]) { $0.count > 0 }
        } catch let error as PGError {
            throw fail(error)
        } catch {
            throw .io(ErrorWords.text(error))
        }
    }

    public func putBlob(_ blob: Blob) throws(EventLogError) {
        do {
            try open().run("INSERT INTO blobs(sha256, encoding, body) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING", [
                .text(blob.sha256), .text(blob.encoding.rawValue), .bytes(blob.bytes),
            ])
        } catch {
            throw fail(error)
        }
    }

    public func blob(_ sha256: String) throws(EventLogError) -> Blob? {
        guard schemaKnown else { return nil }
        do {
            let connection = try open()
            let encoding = try connection.query("SELECT encoding FROM blobs WHERE sha256 = $1", [.text(sha256)]) { rows in
                rows.count > 0 ? BlobEncoding(rawValue: rows.string(0, 0)) : nil
            }
            guard let encoding else { return nil }
            let bytes = try connection.query("SELECT body FROM blobs WHERE sha256 = $1", [.text(sha256)], binaryResult: true) { rows in
                rows.withBytes(0, 0) { Array($0) }
            }
            return Blob(sha256: sha256, encoding: encoding, bytes: bytes)
        } catch let error as PGError {
            throw fail(error)
        } catch {
            throw .io(ErrorWords.text(error))
        }
    }

    public func blobNames() throws(EventLogError) -> [String] {
        guard schemaKnown else { return [] }
        do {
            return try open().query("SELECT sha256 FROM blobs ORDER BY sha256") { rows in (0 ..< rows.count).map { rows.string($0, 0) } }
        } catch let error as PGError {
            throw fail(error)
        } catch {
            throw .io(ErrorWords.text(error))
        }
    }
}
