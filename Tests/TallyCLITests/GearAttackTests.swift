import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Hostile gear names, distances and `--gear` values at the command line, and hostile gear events in
/// an imported log: each refused with a clear message and exit code, nothing appended, never a trap.
@Suite("gear under attack")
struct GearAttackTests {
    static let now = "2026-11-21T12:00:00Z"

    @Test("gear names past the limits exit 65 and append nothing; the message never echoes them whole", arguments: [
        "", "   ", "\t\n", String(repeating: "x", count: 61), String(repeating: "ž", count: 61), String(repeating: "👟", count: 61),
        "a\u{1B}[2Jb", "a\u{7F}b", "a\u{9B}b", String(repeating: "y", count: 100_000),
    ])
    func names(_ name: String) throws {
        let tally = TallyRunner(now: Self.now)
        let result = tally.run("gear", "add", name, "--category", "running")
        #expect(result.status == 65, "\(name.prefix(20).debugDescription): \(result.stderr.prefix(200))")
        #expect(result.stderr.hasPrefix("Error: "))
        #expect(result.stderr.count < 300)
        #expect(!result.stderr.contains("\u{1B}"))
        #expect(tally.eventCount == 0)
    }

    @Test("names of any script and at the limit are taken and listed by their width", arguments: [
        "Pegasus", "Čížek", "自転車 ロード", "Кроссовки", "حذاء", "👟 x", String(repeating: "w", count: 60), "a\u{202E}b",
    ])
    func scripts(_ name: String) throws {
        let tally = TallyRunner(now: Self.now)
        let added = tally.run("gear", "add", name, "--category", "running", "--default")
        #expect(added.status == 0, "\(added.stderr)")
        tally.run("record", "add", "Run", "--category", "running", "--duration", "30m", "--distance", "5km")
        let list = tally.run("gear", "list")
        #expect(list.status == 0)
        #expect(list.stdout.contains("5.00 km"))
        #expect(!list.stdout.contains("\u{202E}"), "a bidi override is shown escaped, never raw")
        if !name.contains("\u{202E}") {
            #expect(tally.run("--json", "gear", "show", name).json?.objectValue?["name"] == .string(TextForm.normalized(name)))
        }
        #expect(tally.run("verify").status == 0)
    }

    @Test("retirement distances that are not 1-100,000 km, or not distances, exit 65", arguments: [
        "", "0km", "999m", "100001km", "-5km", "nan", "inf km", "1e400km", "5", "5 parsecs", "0x10km", String(repeating: "9", count: 10_000) + "km",
    ])
    func retireAt(_ value: String) throws {
        let tally = TallyRunner(now: Self.now)
        let result = tally.run("gear", "add", "X", "--category", "running", "--retire-at", value)
        #expect(result.status == 65 || result.status == 64, "\(value.prefix(20)): \(result.stderr.prefix(200))")
        #expect(result.stderr.count < 400)
        #expect(tally.eventCount == 0)
    }

    @Test("--gear values that name no gear exit 1 whatever they hold; nothing is appended", arguments: [
        "", " ", "nope", String(repeating: "g", count: 100_000), "Pegasus\u{1B}[31m", "%s%n", "../../etc/passwd",
    ])
    func unknownGear(_ value: String) throws {
        let tally = TallyRunner(now: Self.now)
        tally.run("gear", "add", "Pegasus", "--category", "running")
        let before = tally.eventCount
        let add = tally.run("record", "add", "Run", "--category", "running", "--duration", "30m", "--gear", value)
        #expect(add.status == 1, "\(add.stderr.prefix(200))")
        #expect(add.stderr.hasPrefix("Error: No gear is named"))
        #expect(add.stderr.count < 300 && !add.stderr.contains("\u{1B}"))
        #expect(tally.run("gear", "show", value).status == 1)
        #expect(tally.eventCount == before)
    }

    @Test("imported gear events past the limits, on the wrong stream or of the wrong shape are refused; the log is unchanged")
    func importedEvents() throws {
        let tally = TallyRunner(now: Self.now)
        tally.run("gear", "add", "Shoes", "--category", "running", "--default")
        let lines = tally.run("export").stdout.split(separator: "\n").map(String.init)
        guard case .object(let added) = try JSON.parse(lines[0]), case .object(let data)? = added["data"],
              case .object(let defaulted) = try JSON.parse(lines[1]), case .object(let defaultData)? = defaulted["data"] else {
            Issue.record("no exported gear events")
            return
        }
        func with(_ object: JSONObject, _ key: String, _ value: JSON?) -> JSONObject {
            var copy = object
            copy[key] = value
            return copy
        }
        let hostile: [(String, JSONObject, JSONObject, String?)] = [
            ("long name", added, with(data, "name", .string(String(repeating: "x", count: 100_000))), nil),
            ("control", added, with(data, "name", .string("a\u{1B}b")), nil),
            ("untrimmed", added, with(data, "name", .string(" a")), nil),
            ("category", added, with(data, "category", .string("Running!")), nil),
            ("retire", added, with(data, "retireAtMeters", .double(-1)), nil),
            ("retire huge", added, with(data, "retireAtMeters", .double(1e300)), nil),
            ("retire string", added, with(data, "retireAtMeters", .string("800km")), nil),
            ("missing", added, with(data, "category", nil), nil),
            ("stream", added, data, "gear:defaults"),
            ("default stream", defaulted, defaultData, "athlete"),
            ("default gear", defaulted, with(defaultData, "gear", .string("Shoes")), nil),
            ("default category", defaulted, with(defaultData, "category", .int(3)), nil),
        ]
        for (name, line, payload, stream) in hostile {
            let other = TallyRunner(now: Self.now)
            var event = line
            event["data"] = .object(payload)
            if let stream { event["stream"] = .string(stream) }
            event["hash"] = nil
            let path = other.directory.path("hostile.jsonl")
            try (JSON.object(event).serialized() + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            let result = other.run("import", path)
            #expect(result.status == 65, "\(name) was imported: \(result.stderr.prefix(200))")
            #expect(other.eventCount <= 0, "\(name) appended")
        }
    }

    @Test("many pieces of gear and records: list and show stay whole")
    func many() throws {
        let tally = TallyRunner(now: Self.now)
        let count = AttackScale.count(short: 20, full: 200)
        for index in 0..<count {
            #expect(tally.run("gear", "add", "Shoe \(index)", "--category", "running", "--default").status == 0)
        }
        tally.run("record", "add", "Run", "--category", "running", "--duration", "30m", "--distance", "5km")
        let list = try #require(tally.run("--json", "gear", "list").json?.objectValue?["gear"]?.arrayValue)
        #expect(list.count == count)
        #expect(list.filter { $0.objectValue?["default"] == .bool(true) }.count == 1)
        #expect(tally.run("verify").status == 0)
    }
}

/// Hostile goal values and imported goal events.
@Suite("goals under attack")
struct GoalAttackTests {
    @Test("targets that are not in range or not values exit 64 or 65; nothing is appended", arguments: [
        ["--distance", ""], ["--distance", "-5km"], ["--distance", "1e400km"], ["--distance", "nan km"], ["--distance", String(repeating: "9", count: 50_000) + "km"],
        ["--time", "0s"], ["--time", "99999999h"], ["--time", "\u{0}"], ["--count", "1e3"], ["--count", "٣"], ["--count", String(repeating: "1", count: 50_000)],
        ["--count", "3", "--from", "10000-01-01"], ["--count", "3", "--from", "2099-01-01"], ["--count", "3", "--category", String(repeating: "a", count: 40)],
    ])
    func targets(_ options: [String]) throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        let result = tally.run(["goal", "set", "--per", "week"] + options)
        #expect(result.status == 65 || result.status == 64, "\(options.map { $0.prefix(20) }): \(result.stderr.prefix(200))")
        #expect(result.stderr.hasPrefix("Error: ") && result.stderr.count < 500)
        #expect(tally.eventCount == 0)
    }

    @Test("imported goal events past the limits or of the wrong shape are refused")
    func importedEvents() throws {
        let tally = TallyRunner(now: "2026-11-21T12:00:00Z")
        tally.run("goal", "set", "--per", "week", "--distance", "40km")
        guard case .object(let line) = try JSON.parse(String(tally.run("export").stdout.split(separator: "\n")[0])), case .object(let data)? = line["data"] else {
            Issue.record("no exported goal event")
            return
        }
        let hostile: [(String, JSON?)] = [
            ("target", .double(-1)), ("target", .double(1e300)), ("target", .string("40km")), ("per", .string("fortnight")),
            ("metric", .string("calories")), ("category", .string("Bad!")), ("from", .string("2026-02-30")), ("from", nil), ("target", nil),
        ]
        for (key, value) in hostile {
            let other = TallyRunner(now: "2026-11-21T12:00:00Z")
            var event = line
            var payload = data
            payload[key] = value
            event["data"] = .object(payload)
            event["hash"] = nil
            let path = other.directory.path("hostile.jsonl")
            try (JSON.object(event).serialized() + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            let result = other.run("import", path)
            #expect(result.status == 65, "\(key) = \(String(describing: value)) was imported")
            #expect(other.eventCount <= 0)
        }
    }
}
