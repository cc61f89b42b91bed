import TallyEngine
import TallyDomain

/// Messages for snapshot problems.
enum SnapshotMessages {
    /// Why a snapshot was not used, as a clause.
    static func reason(_ kind: SnapshotProblem.Kind, catalog: Catalog) -> String {
        switch kind {
        case .otherFormat(let format):
            return catalog.text(.snapshotReasonOtherFormat, ["format": String(format)])
        case .otherReducerVersion(let version):
            return catalog.text(.snapshotReasonOtherReducer, ["version": String(version), "current": String(Reducer.version)])
        case .aheadOfLog(let head):
            return catalog.text(.snapshotReasonAheadOfLog, ["head": String(head)])
        case .checksumMismatch:
            return catalog.text(.snapshotReasonChecksum)
        case .undecodable(let detail):
            return catalog.text(.snapshotReasonUndecodable, ["detail": detail])
        case .otherHistory:
            return catalog.text(.snapshotReasonOtherHistory)
        case .storage(let detail):
            return catalog.text(.snapshotReasonStorage, ["detail": detail])
        case .notStored(.full):
            return catalog.text(.snapshotReasonDiskFull)
        case .notStored(.busy):
            return catalog.text(.snapshotReasonBusy)
        case .notStored(.io(let detail)), .notStored(.corrupt(let detail)):
            return catalog.text(.snapshotReasonNotStored, ["detail": detail])
        case .notStored(.permissionDenied):
            return catalog.text(.snapshotReasonNoGrant)
        case .notStored(let error):
            var detail = FailureMapper.failure(for: error, catalog: catalog).message
            while detail.hasSuffix(".") { detail.removeLast() }
            return catalog.text(.snapshotReasonNotStored, ["detail": detail])
        case .differsFromReplay(let detail):
            return catalog.text(.snapshotReasonDiffers, ["detail": detail])
        }
    }
}
