import TallyEngine
import TallyDomain
import TallyInterchange
import TallyInterchange

/// Why a route could not be drawn.
enum ReportError: Error {
    /// The record keeps no track file, or one without positions (a treadmill, a pool).
    case noTrack(ref: String)
    /// The kept file is missing from the store or cannot be decoded.
    case trackUnreadable(ref: String, reason: String)

    func failure(catalog: Catalog) -> Failure {
        switch self {
        case .noTrack(let ref):
            Failure(exit: .failure, code: "no_track", message: catalog.text(.errorNoTrack, ["ref": ref]))
        case .trackUnreadable(let ref, let reason):
            Failure(exit: .ioError, code: "corrupt", message: catalog.text(.errorTrackUnreadable, ["ref": ref, "reason": reason]))
        }
    }
}

/// Reads a record's kept track file back from the blob store into the points a chart draws.
enum TrackLoader {
    /// The drawable points of the record's kept file; nil when it keeps none.
    static func line(of record: Record, in log: any EventStore) throws(ReportError) -> RouteLine? {
        guard let track = record.track else { return nil }
        let ref = String(record.number)
        let blob: Blob?
        do {
            blob = try log.blob(track.sha256)
        } catch {
            throw .trackUnreadable(ref: ref, reason: "\(error)")
        }
        guard let blob else { throw .trackUnreadable(ref: ref, reason: "the file \(track.sha256.prefix(16)) is not in the store") }
        let bytes: [UInt8]
        do {
            bytes = blob.encoding == .gzip ? try Gzip.decompress(blob.bytes, limit: ActivityLimits.maxFileBytes) : blob.bytes
        } catch {
            throw .trackUnreadable(ref: ref, reason: "\(error)")
        }
        do {
            return RouteLine(try ActivityFile.parse(bytes).activity.points)
        } catch {
            throw .trackUnreadable(ref: ref, reason: "\(error)")
        }
    }
}
