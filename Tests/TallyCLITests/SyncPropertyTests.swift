import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyEssentials

/// Random offline work on three devices, syncs in random order, and syncs killed with SIGKILL at
/// random moments. In the end every device converges on the shared log, `verify` is clean
/// everywhere, and every event ever appended on a device is in the shared log or named as a conflict.
///
/// `SYNC_STEPS` (default 40) sets the length; `make sync-crash-test` runs a long one. Every run prints
/// its seed, and `SYNC_SEED=N` repeats its choices (the moment a kill lands depends on the machine).
@Suite("Sync property: random offline work, random syncs, random kills")
struct SyncPropertyTests {
    @Test("all devices converge, verify everywhere, nothing appended is lost without being named", arguments: SharedLogKind.available)
    func converge(kind: SharedLogKind) throws {
        let environment = ProcessInfo.processInfo.environment
        let steps = environment["SYNC_STEPS"].flatMap(Int.init) ?? 40
        let seed = environment["SYNC_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64(UInt32.max))
        print("sync property: seed \(seed), \(steps) steps (SYNC_SEED=\(seed) repeats it)")
        var random = SeededRandom(seed: seed)
        let fleet = Fleet(["ada", "bob", "cyd"], kind: kind)
        var clock = Fixtures.epoch
        var everLocal = Set<String>()
        var syncSeconds = 0.05
        var figures = (commands: 0, syncs: 0, kills: 0, killedMidway: 0)

        func now() -> String {
            clock += Int64.random(in: 1...600, using: &random) * 1000
            return Timestamp.format(clock)
        }
        func collect(_ device: Int) {
            let actor = "\(["ada", "bob", "cyd"][device])@device"
            for line in fleet.export(fleet[device]).split(separator: "\n") {
                guard case .object(let event)? = try? JSON.parse(String(line)), event["actor"]?.stringValue == actor,
                      let id = event["id"]?.stringValue else { continue }
                everLocal.insert(id)
            }
        }

        for step in 0..<steps {
            let device = Int.random(in: 0..<3, using: &random)
            let roll = Int.random(in: 0..<10, using: &random)
            if roll < 6 {
                let arguments = Self.command(step: step, using: &random)
                let result = fleet[device].run(arguments, environment: ["TALLY_NOW": now()])
                // Taking off an annotation a todo lacks, or starting a completed todo, is refused as bad input.
                let refusable = ["denotate", "start"].contains(arguments[0]) && result.status == 65
                #expect(result.status == 0 || result.status == 1 || refusable, "step \(step): \(arguments): \(result.stderr)")
                figures.commands += 1
                collect(device)
            } else if roll < 8 {
                let started = Date()
                let result = fleet.sync(device, at: now())
                syncSeconds = max(0.01, Date().timeIntervalSince(started))
                #expect(result.status == 0, "step \(step): sync: \(result.stderr)")
                figures.syncs += 1
            } else {
                fleet[device].environment["TALLY_NOW"] = now()
                let delay = syncSeconds * Double.random(in: 0...1.2, using: &random)
                let run = KillableRun.run(fleet[device], ["sync", "--remote", fleet.shared], killAfter: delay)
                fleet[device].environment["TALLY_NOW"] = nil
                figures.kills += 1
                switch run.end {
                case .killed: figures.killedMidway += 1
                case .exited(0): break
                case let other: Issue.record("step \(step): killed sync ended \(other): \(run.stderr)")
                }
                let local = fleet[device].run("verify")
                #expect(local.status == 0, "step \(step): verify after a kill: \(local.stdout)\(local.stderr)")
                #expect(fleet.server.run("verify").status == 0, "step \(step): shared log after a kill")
            }
        }
        for round in 0..<2 {
            for device in 0..<3 {
                let result = fleet.sync(device, at: now())
                #expect(result.status == 0, "final sync \(round) of \(device): \(result.stderr)")
            }
        }
        print("sync property: \(figures.commands) commands, \(figures.syncs) syncs, \(figures.kills) killed syncs (\(figures.killedMidway) before they finished)")
        let shared = fleet.export(fleet.server)
        #expect(fleet.server.run("verify").status == 0)
        var sharedIDs = Set<String>()
        for line in shared.split(separator: "\n") {
            if case .object(let event)? = try? JSON.parse(String(line)), let id = event["id"]?.stringValue { sharedIDs.insert(id) }
        }
        var named = Set<String>()
        for device in fleet.devices {
            #expect(fleet.export(device) == shared)
            #expect(device.run("verify").status == 0)
            for conflict in device.run("--json", "conflicts").json?.arrayValue ?? [] {
                if let id = conflict.objectValue?["event"]?.stringValue { named.insert(id) }
            }
        }
        let lost = everLocal.subtracting(sharedIDs).subtracting(named)
        #expect(lost.isEmpty, "events appended locally that are neither shared nor named: \(lost.sorted())")
    }

    /// One random offline command; some refer to items that are missing or deleted (exit 1 is fine).
    static func command(step: Int, using random: inout SeededRandom) -> [String] {
        let ref = String(Int.random(in: 1...6, using: &random))
        switch Int.random(in: 0..<11, using: &random) {
        case 0, 1: return ["add", "todo \(step)"] + (Bool.random(using: &random) ? ["--tag", "t\(step % 3)"] : [])
        case 2: return ["edit", ref, "--title", "title \(step)"]
        case 3:
            switch Int.random(in: 0..<8, using: &random) {
            case 0: return ["edit", ref, "--project", ["home", "home.garden", "none"].randomElement(using: &random)!]
            case 1: return ["edit", ref, Bool.random(using: &random) ? "--after" : "--no-after", String(Int.random(in: 1...6, using: &random))]
            // Annotations and time: the same todo started on two devices, stopped on another, annotated on several.
            case 2: return ["annotate", ref, "note \(step)"]
            case 3: return ["denotate", ref, "1"]
            case 4: return ["start", ref] + (Bool.random(using: &random) ? ["--also"] : [])
            case 5: return ["stop"] + (Bool.random(using: &random) ? [ref] : [])
            default: break
            }
            return ["edit", ref, "--priority", ["low", "high", "none"].randomElement(using: &random)!]
        case 4: return ["edit", ref, "--tag", (Bool.random(using: &random) ? "+" : "-") + "t\(step % 3)"]
        case 5: return ["toggle", ref]
        case 6: return ["delete", ref]
        case 7: return ["record", "add", "run \(step)", "--category", "running", "--duration", "\(20 + step % 40)m"]
        case 8:
            // A saved view, with a filter expression half of the time.
            let expression = ["tag:t\(step % 3) or -priority:none", "(status:pending is:ready) or todo"].randomElement(using: &random)!
            return ["filter", "set", "--status", Bool.random(using: &random) ? "active" : "completed"] + (Bool.random(using: &random) ? [expression] : [])
        case 9: return ["undo"]
        default:
            // Some give, change or clear the effort (chosen from the step: the random sequence stays as it was).
            let edit = ["record", "edit", String(Int.random(in: 1...3, using: &random))]
            switch step % 4 {
            case 1: return edit + ["--effort", String(1 + step % 10)]
            case 3: return edit + ["--no-effort"]
            default: return edit + ["--duration", "\(10 + step % 50)m"]
            }
        }
    }
}
