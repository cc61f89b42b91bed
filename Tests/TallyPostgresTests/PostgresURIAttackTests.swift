import Foundation
import Testing
@testable import TallyPostgres
import TallyTestSupport

/// Connection strings in every form libpq reads, with passwords of every awkward shape: the shown
/// form never holds the password or a piece of it.
@Suite("PostgreSQL connection strings: no password in any form is ever shown")
struct PostgresURIAttackTests {
    /// A password of random 5-character pieces joined by characters that matter in a URI.
    static func password(_ generator: inout some RandomNumberGenerator) -> (raw: String, pieces: [String]) {
        let letters = Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789")
        let separators = ["/", "?", "@", "#", ":", "&", "=", "%", " ", "'", "\\", "é", ";", "+"]
        var pieces: [String] = []
        var raw = ""
        for index in 0 ..< Int.random(in: 1 ... 4, using: &generator) {
            let piece = String((0 ..< 5).map { _ in letters.randomElement(using: &generator)! })
            pieces.append(piece)
            if index > 0 { raw += separators.randomElement(using: &generator)! }
            raw += piece
        }
        return (raw, pieces)
    }

    static func percentEncoded(_ text: String) -> String {
        text.utf8.map { byte in
            let scalar = Unicode.Scalar(byte)
            return byte < 0x80 && (CharacterSet.alphanumerics.contains(scalar) || "-._~".unicodeScalars.contains(scalar))
                ? String(Character(scalar)) : String(format: "%%%02X", byte)
        }.joined()
    }

    /// Every way to write the password into a connection string.
    static func forms(_ password: String) -> [String] {
        let encoded = percentEncoded(password)
        let quoted = "'" + password.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
        return [
            "postgresql://bob:\(password)@db.example:5432/team",
            "postgresql://bob:\(encoded)@db.example/team?sslmode=require",
            "postgres://bob:\(password)@db.example,db2.example:5433/team?application_name=x",
            "postgresql://bob@db.example/team?password=\(encoded)",
            "postgresql://bob@db.example/team?sslmode=require&pass%77ord=\(encoded)",
            "postgresql://db.example/team?%70%61%73%73%77%6f%72%64=\(encoded)&user=bob",
            "postgresql://db.example/team?PassWord=\(encoded)",
            "postgresql://bob@db.example/team?sslpassword=\(encoded)",
            "postgresql://bob:\(password)@db.example/team?password=\(encoded)",
            "host=db.example dbname=team user=bob password=\(quoted)",
            "host=db.example password = \(quoted) dbname=team",
            "  dbname=team password=\(quoted) sslmode=require",
            "user=bob junk host=db password=\(quoted)",
        ]
    }

    @Test("generated passwords in every form: neither they nor any piece of them are in the shown string or a scrubbed libpq message")
    func generated() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0 ..< AttackScale.count(short: 300, full: 20_000) {
            let (password, pieces) = Self.password(&generator)
            // A piece that the form's own words hold (the random letters can spell "ostgr" of
            // "postgresql") proves nothing: only pieces the form without a password lacks count.
            for (form, frame) in zip(Self.forms(password), Self.forms("")) {
                let shown = PostgresURI.redacted(form)
                let words = (frame + " could not translate host name @db.example to address; invalid value").lowercased()
                let pieces = pieces.filter { !words.contains($0.lowercased()) }
                #expect(PostgresURI.matches(form), "\(form)")
                for piece in pieces where shown.contains(piece) {
                    Issue.record("\(form) is shown as \(shown)")
                }
                // libpq quotes what it could not parse, such as the rest of a password after a raw '@'.
                let message = "could not translate host name \"\(pieces.last!)@db.example\" to address; invalid value \"\(password)\""
                let scrubbed = PostgresURI.scrubbed(message, conninfo: form)
                for piece in pieces where scrubbed.contains(piece) {
                    Issue.record("\(form): \(scrubbed)")
                }
                if form.hasPrefix("postgresql://bob:\(password)@"), password.contains(where: { "/?@#".contains($0) }) {
                    #expect(PostgresURI.problem(form) != nil, "\(form)")
                }
            }
        }
    }

    @Test("what is not a password stays as written", arguments: [
        ("postgresql://bob@db.example:5432/team?sslmode=require", "postgresql://bob@db.example:5432/team?sslmode=require"),
        ("postgresql://bob:pw@db.example/team", "postgresql://bob:***@db.example/team"),
        ("host=db dbname=team user=bob", "host=db dbname=team user=bob"),
        ("host=db password=pw dbname=team", "host=db password=*** dbname=team"),
        ("/tmp/tally.db", "/tmp/tally.db"),
    ])
    func plain(_ uri: String, _ shown: String) {
        #expect(PostgresURI.redacted(uri) == shown)
        #expect(PostgresURI.problem(uri) == nil)
    }

    @Test("libpq's connection messages become one clause: the last address's reason, no severity, no hint lines, no final period")
    func reasons() {
        #expect(PostgresErrors.reason("connection to server at \"127.0.0.1\", port 5432 failed: FATAL:  password authentication failed for user \"bob\"\n")
            == "password authentication failed for user \"bob\"")
        #expect(PostgresErrors.reason("connection to server at \"::1\", port 1 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?\nconnection to server at \"127.0.0.1\", port 1 failed: Connection refused\n\tIs the server running?\n")
            == "Connection refused")
        #expect(PostgresErrors.reason("FATAL:  terminating connection due to administrator command\nserver closed the connection unexpectedly\n\tThis probably means the server terminated abnormally\n")
            == "terminating connection due to administrator command")
        #expect(PostgresErrors.reason("permission denied for table events") == "permission denied for table events")
    }
}
