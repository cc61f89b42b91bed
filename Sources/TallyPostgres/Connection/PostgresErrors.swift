#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain

/// Maps libpq and server failures to the event log's typed errors, at the storage boundary.
enum PostgresErrors {
    /// A failed statement on an open connection.
    static func map(_ error: PGError, server: String) -> EventLogError {
        if error.connectionLost {
            return .unavailable(ServerFailure(kind: .lost, server: server, detail: error.message))
        }
        let state = error.sqlState ?? ""
        switch state {
        case "23505" where error.message.contains("events_id_key"):
            return .duplicateEventID("")
        case "23505" where error.message.contains("events_stream_version_key"):
            return .conflict(stream: "", version: 0)
        case "42501":
            return .permissionDenied(error.message)
        case "55P03", "57014", "40001", "40P01":
            return .busy
        case "53100":
            return .full
        case _ where state.hasPrefix("08") || state.hasPrefix("57P"):
            return .unavailable(ServerFailure(kind: .lost, server: server, detail: error.message))
        default:
            return .io(state.isEmpty ? error.message : "\(error.message) (SQLSTATE \(state))")
        }
    }

    /// A connection attempt that failed: libpq gives no SQLSTATE here, only its message.
    static func mapConnect(_ error: PGError, server: String) -> EventLogError {
        if error.clientMissing {
            return .unavailable(ServerFailure(kind: .clientMissing, server: server, detail: error.message))
        }
        let message = error.message
        let lower = message.lowercased()
        let kind: ServerFailure.Kind
        if lower.contains("database \""), lower.contains("does not exist") {
            kind = .unknownDatabase
        } else if lower.contains("authentication failed") || lower.contains("no password supplied")
            || lower.contains("pg_hba.conf") || (lower.contains("role \"") && lower.contains("does not exist")) {
            kind = .authentication
        } else {
            kind = .refused
        }
        return .unavailable(ServerFailure(kind: kind, server: server, detail: firstLine(message)))
    }

    /// libpq's connection messages can run over several lines (one per address tried); the last says why.
    private static func firstLine(_ message: String) -> String {
        let lines = message.split(separator: "\n").map { $0.trimming(.whitespaces) }.filter { !$0.isEmpty }
        return lines.last ?? message
    }
}

/// PostgreSQL connection URIs as tally shows them: never with a password.
public enum PostgresURI {
    /// True for `postgresql://...` and `postgres://...`.
    public static func matches(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://")
    }

    /// The URI with any password (in the user part or a `password=` parameter) replaced by `***`.
    public static func redacted(_ uri: String) -> String {
        guard let schemeEnd = uri.firstRange(of: "://") else { return uri }
        var rest = String(uri[schemeEnd.upperBound...])
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            if let colon = userInfo.firstIndex(of: ":") {
                rest = String(userInfo[..<colon]) + ":***" + rest[at...]
            }
        }
        if let query = rest.firstIndex(of: "?") {
            let parameters = rest[rest.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false).map { parameter -> String in
                parameter.lowercased().hasPrefix("password=") ? "password=***" : String(parameter)
            }
            rest = rest[...query] + parameters.joined(separator: "&")
        }
        return String(uri[..<schemeEnd.upperBound]) + rest
    }
}
