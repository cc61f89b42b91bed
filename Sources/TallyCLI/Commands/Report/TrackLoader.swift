import TallyEngine
import TallyDomain
import TallyInterchange
import TallyEssentials

/// Why a route could not be drawn.
enum ReportError: Error {
    /// The record keeps no track file, or one without positions (a treadmill, a pool).
    case noTrack(ref: String)
    /// The kept file is missing from the store or cannot be decoded.
    case trackUnreadable(ref: String, reason: String)
    /// The kept file is there but no longer reads as an activity file.
    case trackFile(ref: String, problem: ActivityFileProblem)

    func failure(catalog: Catalog) -> Failure {
        switch self {
        case .noTrack(let ref):
            Failure(exit: .failure, code: "no_track", message: catalog.text(.errorNoTrack, ["ref": ref]))
        case .trackUnreadable(let ref, let reason):
            Failure(exit: .ioError, code: "corrupt", message: catalog.text(.errorTrackUnreadable, ["ref": ref, "reason": reason]))
        case .trackFile(let ref, let problem):
            Failure(exit: .ioError, code: "corrupt", message: catalog.text(.errorTrackUnreadable, ["ref": ref, "reason": RecordImportCommand.reason(problem, catalog)]))
        }
    }
}

/// Reads a record's kept track file back from the blob store into the points a chart draws, through
/// `KeptTrack` (the reader `record show`'s detail and `record reanalyze` use).
enum TrackLoader {
    /// The drawable points of the record's kept file; nil when it keeps none.
    static func line(of record: Record, in log: any EventStore) throws(ReportError) -> RouteLine? {
        guard let track = record.track else { return nil }
        let ref = String(record.number)
        let kept = KeptTrack(blobs: log, inflate: { bytes, limit in try Gzip.decompress(bytes, limit: limit) })
        let parsed: Result<(format: String, activity: ParsedActivity), KeptTrack.Problem>
        do {
            parsed = try kept.parsed(track)
        } catch {
            throw .trackUnreadable(ref: ref, reason: ErrorWords.text(error))
        }
        switch parsed {
        case .success(let (_, activity)):
            return RouteLine(activity.points)
        case .failure(.missing):
            throw .trackUnreadable(ref: ref, reason: "the file \(track.sha256.prefix(16)) is not in the store")
        case .failure(.damaged):
            throw .trackUnreadable(ref: ref, reason: "the stored file \(track.sha256.prefix(16)) no longer matches its hash")
        case .failure(.file(let problem)):
            throw .trackFile(ref: ref, problem: problem)
        }
    }
}
