
/// The error in words, so a message that interpolates it never shows a case name and its fields.
extension EventLogError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .conflict(let stream, let version): "another writer already stored version \(version) of stream \(stream)"
        case .duplicateEventID(let id): "an event with id \(id) is already in the log"
        case .busy: "the database stayed locked by another writer"
        case .newerSchema(let found, let known): "the database was written by a newer tally (schema \(found); this one knows up to \(known))"
        case .corrupt(let detail), .io(let detail), .permissionDenied(let detail), .foreignSchema(let detail): detail
        case .full: "the disk is full"
        case .unavailable(let failure): failure.description
        case .unreadableRedaction(let seq, let reason): "event \(seq) is a redaction that cannot be read (\(reason)), so its values cannot be erased"
        case .deferred(let error, let seq): "event \(seq): \(error.description)"
        }
    }
}

extension ServerFailure: CustomStringConvertible {
    public var description: String {
        let what = switch kind {
        case .refused: "cannot reach \(server)"
        case .authentication: "\(server) refused the login"
        case .unknownDatabase: "\(server) has no such database"
        case .lost: "the connection to \(server) was lost"
        case .clientMissing: "the PostgreSQL client library (libpq) is not installed"
        case .invalidAddress: "the address of \(server) cannot be read as written"
        }
        return detail.isEmpty ? what : "\(what): \(detail)"
    }
}
