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
            return .unavailable(ServerFailure(kind: .lost, server: server, detail: reason(error.message)))
        }
        let state = error.sqlState ?? ""
        switch state {
        case "23505" where error.message.contains("events_id_key"):
            return .duplicateEventID("")
        case "23505" where error.message.contains("events_stream_version_key"):
            return .conflict(stream: "", version: 0)
        case "42501":
            return .permissionDenied(reason(error.message))
        case "55P03", "57014", "40001", "40P01":
            return .busy
        case "53100":
            return .full
        case _ where state.hasPrefix("08") || state.hasPrefix("57P"):
            return .unavailable(ServerFailure(kind: .lost, server: server, detail: reason(error.message)))
        default:
            return .io(state.isEmpty ? reason(error.message) : "\(reason(error.message)) (SQLSTATE \(state))")
        }
    }

    /// A connection attempt that failed: libpq gives no SQLSTATE here, only its message, which may
    /// quote parts of the connection string (secrets are scrubbed from it).
    static func mapConnect(_ error: PGError, server: String, conninfo: String) -> EventLogError {
        let message = PostgresURI.scrubbed(error.message, conninfo: conninfo)
        if error.clientMissing {
            return .unavailable(ServerFailure(kind: .clientMissing, server: server, detail: message))
        }
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
        return .unavailable(ServerFailure(kind: kind, server: server, detail: reason(message)))
    }

    /// libpq's words as a clause of tally's message: the reason of the last address tried (libpq
    /// writes one line per address, `connection to server at "h", port p failed: why`), without
    /// the severity (`FATAL:  `), hint lines or a final period.
    static func reason(_ message: String) -> String {
        let lines = message.split(separator: "\n").filter { !$0.hasPrefix("\t") }.map { $0.trimming(.whitespaces) }.filter { !$0.isEmpty }
        let attempts = lines.filter { $0.hasPrefix("connection to server") }
        var line = attempts.last ?? lines.first ?? message
        if line.hasPrefix("connection to server"), let failed = line.firstRange(of: " failed: ") {
            line = String(line[failed.upperBound...])
        }
        for severity in ["FATAL:", "ERROR:", "PANIC:"] where line.hasPrefix(severity) {
            line = String(line.dropFirst(severity.count)).trimming(.whitespaces)
        }
        while line.hasSuffix(".") { line.removeLast() }
        return line.isEmpty ? message.trimming(.whitespacesAndNewlines) : line
    }
}

/// PostgreSQL connection strings as tally shows them: never with a password.
///
/// Both forms libpq reads are recognised: URIs (`postgresql://...`, `postgres://...`) and
/// keyword/value strings (`host=db dbname=team user=bob password=...`). A password is hidden in
/// every spelling: in the user part (even with a raw `/`, `?` or `@` in it, which libpq itself would
/// not parse), as a `password=` or `sslpassword=` parameter however its name is percent-encoded
/// (`?pass%77ord=`), and as a keyword/value pair (quoted or not).
public enum PostgresURI {
    /// Parameters whose values are secrets.
    static let secretKeys: Set<String> = ["password", "sslpassword"]
    /// libpq's connection keywords: a string that starts with one of them and `=` is a keyword/value conninfo.
    static let keywords: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "channel_binding", "connect_timeout",
        "client_encoding", "options", "application_name", "fallback_application_name", "keepalives", "keepalives_idle",
        "keepalives_interval", "keepalives_count", "tcp_user_timeout", "replication", "gssencmode", "sslmode", "requiressl",
        "sslcompression", "sslcert", "sslkey", "sslpassword", "sslcertmode", "sslrootcert", "sslcrl", "sslcrldir", "sslsni",
        "requirepeer", "ssl_min_protocol_version", "ssl_max_protocol_version", "krbsrvname", "gsslib", "gssdelegation",
        "service", "target_session_attrs", "load_balance_hosts", "require_auth",
    ]

    /// True for `postgresql://...`, `postgres://...` and libpq keyword/value strings (`host=... dbname=...`).
    public static func matches(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("postgresql://") || lower.hasPrefix("postgres://") || isKeywordValue(text)
    }

    /// True when `text` begins with a libpq keyword and `=`, as `host=db dbname=team` does.
    static func isKeywordValue(_ text: String) -> Bool {
        let trimmed = text.drop { $0 == " " || $0 == "\t" }
        guard let equals = trimmed.firstIndex(of: "=") else { return false }
        let key = trimmed[..<equals].trimming(.whitespaces).lowercased()
        return keywords.contains(key)
    }

    /// The connection string with every password replaced by `***`.
    public static func redacted(_ conninfo: String) -> String {
        if let schemeEnd = conninfo.firstRange(of: "://") {
            let rest = String(conninfo[schemeEnd.upperBound...])
            return String(conninfo[..<schemeEnd.upperBound]) + redactedQuery(redactedUserInfo(rest))
        }
        return isKeywordValue(conninfo) ? redactedKeywordValue(conninfo) : conninfo
    }

    /// Every secret the string carries, as written and percent-decoded: for scrubbing the client
    /// library's messages, which may quote parts of the string.
    public static func secrets(_ conninfo: String) -> [String] {
        var found: [String] = []
        func add(_ value: Substring) {
            guard !value.isEmpty else { return }
            found.append(String(value))
            if let decoded = percentDecoded(value), decoded != String(value) { found.append(decoded) }
        }
        if let schemeEnd = conninfo.firstRange(of: "://") {
            let rest = conninfo[schemeEnd.upperBound...]
            if let at = userInfoEnd(rest), let colon = rest[..<at].firstIndex(of: ":") {
                add(rest[rest.index(after: colon) ..< at])
            }
            for parameter in rest.split(whereSeparator: { $0 == "?" || $0 == "&" }) {
                guard let equals = parameter.firstIndex(of: "=") else { continue }
                if isSecretKey(parameter[..<equals]) { add(parameter[parameter.index(after: equals)...]) }
            }
        } else {
            for (key, value) in keywordValuePairs(conninfo) where isSecretKey(Substring(key.text)) {
                add(value.text)
            }
        }
        return found.sorted { $0.count > $1.count }
    }

    /// `text` with every secret of `conninfo` replaced by `***`.
    /// libpq quotes what it could not parse (`invalid integer value "pa" for connection option "port"`
    /// for `user:pa/ss@host`): a quoted piece of a secret is hidden too.
    public static func scrubbed(_ text: String, conninfo: String) -> String {
        let secrets = secrets(conninfo)
        guard !secrets.isEmpty else { return text }
        var result = text
        for secret in secrets {
            result = result.replacing(secret, with: "***")
        }
        let pieces = result.split(separator: "\"", omittingEmptySubsequences: false)
        guard pieces.count > 2 else { return result }
        return pieces.enumerated().map { index, piece in
            index % 2 == 1 && !piece.isEmpty && secrets.contains { secret in
                secret.contains(piece) || secret.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) }).contains { $0.count >= 2 && piece.contains($0) }
            } ? "***" : String(piece)
        }.joined(separator: "\"")
    }

    /// Why a URI cannot be read as its writer meant it, before libpq tries: a password with a raw
    /// `/`, `?` or `@` (libpq ends the user part at the first `@` before any `/`, so the rest of the
    /// password would become a host or a port, and its error message would quote it).
    public static func problem(_ conninfo: String) -> String? {
        guard let schemeEnd = conninfo.firstRange(of: "://") else { return nil }
        let rest = conninfo[schemeEnd.upperBound...]
        guard let at = userInfoEnd(rest) else { return nil }
        let userInfo = rest[..<at]
        guard userInfo.contains(where: { $0 == "/" || $0 == "?" || $0 == "@" || $0 == "#" }) else { return nil }
        return "the user name or password contains a raw '/', '?', '#' or '@'; write them as %2F, %3F, %23 and %40"
    }

    /// The end of the user part: the last `@` followed by a host list (letters, digits and `.-:,[]%_`
    /// up to a `/`, a `?` or the end), so a password with a raw `/`, `?` or `@` in it is all hidden;
    /// an `@` in the query (`?user=bob@corp`) at worst hides more than the password.
    private static func userInfoEnd(_ rest: Substring) -> Substring.Index? {
        let hostCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:,[]%_")
        var found: Substring.Index?
        var index = rest.startIndex
        while let at = rest[index...].firstIndex(of: "@") {
            let after = rest[rest.index(after: at)...]
            let host = after.prefix { $0 != "/" && $0 != "?" }
            if host.allSatisfy(hostCharacters.contains) { found = at }
            index = rest.index(after: at)
        }
        if let found { return found }
        guard let firstAt = rest.firstIndex(of: "@") else { return nil }
        let queryStart = rest[firstAt...].firstIndex(of: "?") ?? rest.endIndex
        return rest[..<queryStart].lastIndex(of: "@")
    }

    private static func redactedUserInfo(_ rest: String) -> String {
        let text = Substring(rest)
        guard let at = userInfoEnd(text) else { return rest }
        let userInfo = text[..<at]
        guard let colon = userInfo.firstIndex(of: ":") else {
            // A user name alone; when it looks like more than a name (a query, a path), hide it all.
            return userInfo.contains(where: { "/?&=".contains($0) }) ? "***" + text[at...] : rest
        }
        let user = userInfo[..<colon]
        let shownUser = user.contains(where: { "/?&=".contains($0) }) ? "***" : String(user)
        return shownUser + ":***" + text[at...]
    }

    /// Hides the value of every `password` / `sslpassword` parameter, however its name is encoded.
    private static func redactedQuery(_ rest: String) -> String {
        guard let query = rest.firstIndex(of: "?") else { return rest }
        let parameters = rest[rest.index(after: query)...].split(separator: "&", omittingEmptySubsequences: false).map { parameter -> String in
            guard let equals = parameter.firstIndex(of: "=") else {
                return isSecretKey(parameter) ? "***" : String(parameter)
            }
            let key = parameter[..<equals]
            guard isSecretKey(key) else { return String(parameter) }
            return key.lowercased() == "password" ? "password=***" : key + "=***"
        }
        return rest[...query] + parameters.joined(separator: "&")
    }

    private static func isSecretKey(_ key: Substring) -> Bool {
        let decoded = (percentDecoded(key) ?? String(key)).trimming(.whitespaces).lowercased()
        return secretKeys.contains(decoded)
    }

    /// `%XX` sequences decoded (as libpq decodes URI parts); nil when an escape is malformed.
    static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0") ... UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a") ... UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A") ... UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// One token of a keyword/value string and where it is.
    struct Token {
        var text: Substring
        var range: Range<String.Index>
    }

    /// The `key = value` pairs of a keyword/value string, values unquoted as libpq reads them
    /// (`'...'` with `\'` and `\\`), with the range each value takes in the string.
    static func keywordValuePairs(_ text: String) -> [(key: Token, value: Token)] {
        var pairs: [(Token, Token)] = []
        var index = text.startIndex
        func skipSpaces() { while index < text.endIndex, text[index].isWhitespace { index = text.index(after: index) } }
        while true {
            skipSpaces()
            guard index < text.endIndex else { break }
            let keyStart = index
            while index < text.endIndex, text[index] != "=", !text[index].isWhitespace { index = text.index(after: index) }
            let key = Token(text: text[keyStart ..< index], range: keyStart ..< index)
            skipSpaces()
            // A word without `=` is not a pair (libpq refuses the string); look at the next word.
            guard index < text.endIndex, text[index] == "=" else { continue }
            index = text.index(after: index)
            skipSpaces()
            let valueStart = index
            var value = ""
            if index < text.endIndex, text[index] == "'" {
                index = text.index(after: index)
                while index < text.endIndex, text[index] != "'" {
                    if text[index] == "\\", text.index(after: index) < text.endIndex { index = text.index(after: index) }
                    value.append(text[index])
                    index = text.index(after: index)
                }
                if index < text.endIndex { index = text.index(after: index) }
            } else {
                while index < text.endIndex, !text[index].isWhitespace {
                    if text[index] == "\\", text.index(after: index) < text.endIndex { index = text.index(after: index) }
                    value.append(text[index])
                    index = text.index(after: index)
                }
            }
            pairs.append((key, Token(text: Substring(value), range: valueStart ..< index)))
        }
        return pairs
    }

    private static func redactedKeywordValue(_ text: String) -> String {
        var result = text
        // From the end, so earlier ranges stay valid.
        for (key, value) in keywordValuePairs(text).reversed() where isSecretKey(key.text) {
            result.replaceSubrange(value.range, with: "***")
        }
        return result
    }
}
