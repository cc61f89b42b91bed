import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Hostile athlete settings at the command line and in imported events: each refused with a clear
/// message and exit code, nothing appended.
@Suite("athlete settings under attack")
struct AthleteAttackTests {
    @Test("option values that are not whole numbers in range exit 65 and append nothing", arguments: [
        "", " ", "-5", "0", "99", "251", "190.5", "1e2", "1e400", "nan", "inf", "0x10", "+190", "99999999999999999999999", "١٩٠", "190\\u{0}",
        String(repeating: "9", count: 5_000), "190 bpm",
    ])
    func options(_ value: String) throws {
        for option in ["--max-hr", "--resting-hr", "--threshold-hr", "--ftp"] {
            let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
            let result = tally.run("athlete", "set", option, value)
            #expect(tally.eventCount == (result.status == 0 ? 1 : 0))
            // A few values are valid for one option (99 is a resting rate, +190 a maximum).
            if result.status == 0 { continue }
            #expect(result.status == 65, "\(option) \(value.prefix(20)): \(result.stderr)")
            #expect(result.stderr.hasPrefix("Error: \(option) must be a whole number from"), "\(result.stderr.prefix(200))")
            #expect(result.stderr.count < 400, "the value is cut, not echoed whole")
        }
    }

    @Test("zone bounds that are not four increasing percentages from 30 to 150 are refused", arguments: [
        "1,2,3", "85,90,95", "85,90,95,100,105", "100,95,90,85", "85,85,90,95", "29,40,50,60", "85,90,95,151", "a,b,c,d", ",,,", "85;90;95;100",
        String(repeating: "1,", count: 10_000),
    ])
    func zones(_ value: String) throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        let result = tally.run("athlete", "set", "--hr-zones", value)
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("Error: --hr-zones must be four increasing whole percentages"))
        #expect(tally.eventCount == 0)
    }

    @Test("imported athlete.set events past the limits, on another stream or of the wrong shape are refused; the log is unchanged")
    func importedEvents() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        tally.run("athlete", "set", "--max-hr", "190", "--from", "2025-01-01")
        let good = tally.run("export").stdout
        guard case .object(let line) = try JSON.parse(String(good.split(separator: "\n")[0])), case .object(let data)? = line["data"] else {
            Issue.record("no exported event")
            return
        }
        func with(_ key: String, _ value: JSON?) -> JSONObject {
            var copy = data
            copy[key] = value
            return copy
        }
        let hostile: [(String, JSONObject, String)] = [
            ("maxHeartRate", with("maxHeartRate", .int(400)), "athlete"),
            ("ftp", with("ftp", .int(-1)), "athlete"),
            ("zones", with("heartRateZones", .array([.int(90), .int(80), .int(70), .int(60)])), "athlete"),
            ("from", with("from", .string("10000-01-01")), "athlete"),
            ("string", with("maxHeartRate", .string("190")), "athlete"),
            ("missing", with("ftp", nil), "athlete"),
            ("stream", data, "filter:todos"),
        ]
        for (name, payload, stream) in hostile {
            let other = TallyRunner(now: "2026-11-21T12:00:00Z")
            var event = line
            event["data"] = .object(payload)
            event["stream"] = .string(stream)
            event["hash"] = nil
            let path = other.directory.path("hostile.jsonl")
            try (JSON.object(event).serialized() + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            let result = other.run("import", path)
            #expect(result.status != 0, "\(name) was imported")
            #expect(other.eventCount <= 0, "\(name) appended")
        }
    }
}
