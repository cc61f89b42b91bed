import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// `tally export --ical`, read back by a real iCalendar parser: python3's `icalendar` package, with
/// `dateutil` (its dependency) expanding the RRULEs; the expansions must be tally's own next occurrences.
/// Skips when python3 lacks the package (`make deps` installs python3-icalendar).
@Suite("export --ical read by python3 icalendar")
struct ICalendarExportTests {
    /// A python3 (first on PATH, then the system's) that has `icalendar` and `dateutil`, and the
    /// icalendar major version.
    static let parser: (path: String, major: Int)? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { $0 + "/python3" } + ["/usr/bin/python3", "/usr/local/bin/python3"]
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: candidate)
            process.arguments = ["-c", "import icalendar, dateutil.rrule; print(icalendar.__version__.split('.')[0])"]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = Pipe()
            guard (try? process.run()) != nil else { continue }
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            if process.terminationStatus == 0, let major = Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) {
                return (candidate, major)
            }
        }
        return nil
    }()
    static let python: String? = parser?.path
    static let reader = PackageFiles.url("Tests/TallyCLITests/Fixtures/ical/read_vtodos.py").path

    /// What the parser made of the file, by UID.
    static func parsed(_ path: String) throws -> [String: [String: JSON]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python!)
        process.arguments = [reader, path]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "the parser refused the file: \(errors)")
        var result: [String: [String: JSON]] = [:]
        for item in try JSON.parse(String(decoding: data, as: UTF8.self)).arrayValue ?? [] {
            guard let object = item.objectValue, let uid = object["uid"]?.stringValue else { continue }
            result[uid] = Dictionary(uniqueKeysWithValues: object.members.map { ($0.key, $0.value) })
        }
        return result
    }

    @Test("VTODOs with zones, dates, escaping, folding and RRULEs that expand to tally's own occurrences", .enabled(if: python != nil))
    func roundTrip() throws {
        let tally = TallyRunner(zone: "Europe/Prague")
        tally.run("add", "Pay rent; and, \\ things", "--due", "2026-01-31", "--recur", "monthly", "--until", "2026-12-31", "--tag", "home", "--priority", "high")
        tally.run("add", "Standup — a long title that folds the SUMMARY line past seventy-five octets ěščřžýáíé", "--due", "2026-10-22 09:30",
                  "--recur", "weekdays", "--note", "line one\nline two, with a comma")
        tally.run("add", "Leap day", "--due", "2028-02-29", "--recur", "yearly")
        tally.run("add", "Water plants", "--due", "2026-11-22", "--recur", "3d", "--recur-from", "completion")
        tally.run("add", "Fortnightly across the clock change", "--due", "2026-10-20 18:00", "--recur", "2w", "--project", "home.garden")
        tally.run("add", "No due date")
        tally.run("add", "Done already", "--due", "2026-11-01", "--priority", "low")
        tally.run("done", "7")
        tally.run("add", "Deleted", "--due", "2026-11-02")
        tally.run("delete", "8")
        let file = tally.directory.path("todos.ics")
        let result = tally.run("export", "--ical", "--output", file)
        #expect(result.status == 0 && result.stdout == "Wrote 6 todos with due dates to \(file).\n", "\(result.stdout)\(result.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(bytes == Array(tally.run("export", "--ical").stdout.utf8), "stdout and --output write the same bytes")
        // Every line ends in CRLF and is at most 75 octets; continuation lines start with a space.
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasSuffix("END:VCALENDAR\r\n") && !text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        let lines = text.components(separatedBy: "\r\n").dropLast()
        #expect(lines.allSatisfy { $0.utf8.count <= 75 }, "\(lines.filter { $0.utf8.count > 75 })")
        #expect(lines.contains { $0.hasPrefix(" ") }, "the long SUMMARY is folded")

        let todos = try Self.parsed(file)
        #expect(todos.count == 6)
        let mine = (tally.run("--json", "list", "--status", "all").json?.arrayValue ?? []).compactMap(\.objectValue)
        for todo in mine {
            guard let id = todo["id"]?.stringValue else { continue }
            guard todo["due"] != .null else {
                #expect(todos[id] == nil, "a todo without a due date is left out")
                continue
            }
            guard let vtodo = todos[id] else { Issue.record("\(todo["title"]!) is missing"); continue }
            #expect(vtodo["summary"] == todo["title"])
            #expect(vtodo["description"] == todo["note"])
            #expect(vtodo["categories"] == todo["tags"])
            #expect(vtodo["status"] == (todo["completed"] == true ? "COMPLETED" : "NEEDS-ACTION"))
            let priority: JSON = switch todo["priority"]?.stringValue { case "high": 1; case "medium": 5; case "low": 9; default: .null }
            #expect(vtodo["priority"] == priority)
            // The series' next occurrences as tally shows them, and as the RRULE expands.
            let number = String(todo["number"]?.intValue ?? 0)
            let series = tally.run("--json", "show", number).json?.objectValue?["series"]?.objectValue
            let expanded = (vtodo["next"]?.arrayValue ?? []).compactMap { $0.stringValue.map { String($0.prefix(10)) } }
            if let series, series["from"] == "due" {
                // tally's next three (after today, missed ones skipped) follow one another in the expansion.
                let next = (series["next"]?.arrayValue ?? []).compactMap(\.stringValue)
                let start = expanded.firstIndex(of: next.first ?? "")
                #expect(!next.isEmpty && start.map { Array(expanded[$0..<min($0 + next.count, expanded.count)]) } == next, "\(todo["title"]!): \(next) in \(expanded.prefix(20))")
            } else {
                #expect(expanded.isEmpty, "\(todo["title"]!): no RRULE")
            }
        }
        let byTitle = Dictionary(uniqueKeysWithValues: mine.compactMap { todo in todo["id"]?.stringValue.flatMap { todos[$0] }.map { (todo["title"]?.stringValue ?? "", $0) } })
        #expect(byTitle["Pay rent; and, \\ things"]?["due"] == "2026-01-31")
        func first(_ title: String, _ count: Int = 4) -> [String] {
            (byTitle[title]?["next"]?.arrayValue ?? []).prefix(count).compactMap(\.stringValue)
        }
        #expect(first("Pay rent; and, \\ things", 20).map { String($0.prefix(10)) } == [
            "2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31", "2026-06-30", "2026-07-31", "2026-08-31", "2026-09-30",
            "2026-10-31", "2026-11-30", "2026-12-31",
        ], "monthly on the 31st: the last day of shorter months, until 2026-12-31")
        #expect(first("Leap day").map { String($0.prefix(10)) } == ["2028-02-29", "2029-02-28", "2030-02-28", "2031-02-28"])
        // Wall-clock times across the change to winter time on 25 October 2026.
        let fortnightly = byTitle["Fortnightly across the clock change"]
        #expect(fortnightly?["due"] == "2026-10-20T18:00:00+02:00" && first("Fortnightly across the clock change") == [
            "2026-10-20T18:00:00+02:00", "2026-11-03T18:00:00+01:00", "2026-11-17T18:00:00+01:00", "2026-12-01T18:00:00+01:00",
        ])
        #expect(first("Standup — a long title that folds the SUMMARY line past seventy-five octets ěščřžýáíé") == [
            "2026-10-22T09:30:00+02:00", "2026-10-23T09:30:00+02:00", "2026-10-26T09:30:00+01:00", "2026-10-27T09:30:00+01:00",
        ])
        #expect(byTitle["Done already"]?["completed"] == "2026-11-21T12:00:00+00:00")
        #expect(text.contains("X-TALLY-PROJECT:home.garden\r\n"))
    }

    @Test("--ical with --since is a usage error; UTC due times end in Z without a VTIMEZONE")
    func options() throws {
        let tally = TallyRunner()
        tally.run("add", "Call", "--due", "2026-11-25 09:00")
        let wrong = tally.run("export", "--ical", "--since", "3")
        #expect(wrong.status == 64 && wrong.stdout.isEmpty, "\(wrong.stderr)")
        let out = tally.run("export", "--ical").stdout
        #expect(out.contains("\r\nDUE:20261125T090000Z\r\n") && !out.contains("VTIMEZONE"), "\(out)")
    }

    @Test("a zone the parser cannot know by name (a POSIX TZ string): its times come from the VTIMEZONE tally writes", .enabled(if: python != nil))
    func ownTimezone() throws {
        let tally = TallyRunner(zone: "CET-1CEST,M3.5.0,M10.5.0/3")
        tally.run("add", "Fortnightly", "--due", "2026-10-20 18:00", "--recur", "2w")
        let file = tally.directory.path("todos.ics")
        #expect(tally.run("export", "--ical", "--output", file).status == 0)
        let todo = try #require(try Self.parsed(file).values.first)
        #expect(todo["tzid"] == "CET-1CEST,M3.5.0,M10.5.0/3")
        let next = (todo["next"]?.arrayValue ?? []).compactMap(\.stringValue)
        #expect(Array(next.prefix(2)) == ["2026-10-20T18:00:00+02:00", "2026-11-03T18:00:00+01:00"])
        // Summer time again from 28 March 2027 and for the ten years the VTIMEZONE covers.
        #expect(next.contains("2027-04-06T18:00:00+02:00") && next.contains("2036-10-21T18:00:00+02:00") && next.contains("2036-11-04T18:00:00+01:00"))
    }
}
