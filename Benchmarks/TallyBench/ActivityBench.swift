import Foundation
import TallyDomain
import TallyTestHarness
import TallyInterchange

/// `record import` of a Strava-like export against reading its files once, and `record bests`
/// over the tracked activities it leaves.
struct ActivityBench {
    let bench: Bench
    /// Activities in the export and GPS points per track (about 110 bytes each in GPX).
    let activities: Int
    let points: Int

    /// Writes (or reuses) the export: `activities.csv` and `activities/`, three GPX tracks in four, the rest gzipped FIT.
    func export() throws -> String {
        let folder = "\(bench.options.cache)/strava-\(activities)a-\(points)p-g1"
        if FileManager.default.fileExists(atPath: folder + "/activities.csv") { return folder }
        bench.note("writing a Strava-like export of \(activities) activities ...")
        try FileManager.default.createDirectory(atPath: folder + "/activities", withIntermediateDirectories: true)
        var csv = "Activity ID,Activity Date,Activity Name,Activity Type,Elapsed Time,Distance,Filename\n"
        var random = SplitMix(seed: 2026)
        for index in 0..<activities {
            let start = Timestamp.parse("2024-01-01T06:00:00Z")! + Int64(index) * 86_400_000 + Int64(random.next() % 3_600) * 1000
            let speed = 2.5 + Double(random.next() % 200) / 100
            let track = SyntheticTrack.line(start: start, latitude: 48 + Double(index % 50) / 10, speed: speed, seconds: points - 1, climb: 0.05)
            let id = 10_000 + index
            let name: String
            if index % 4 == 3 {
                name = "activities/\(id).fit.gz"
                try Data(try Gzip.compress(SyntheticTrack.fit(track), level: 1)).write(to: URL(fileURLWithPath: folder + "/" + name))
            } else {
                name = "activities/\(id).gpx"
                try SyntheticTrack.gpx(track, name: "Run \(id)").write(toFile: folder + "/" + name, atomically: false, encoding: .utf8)
            }
            let date = Date(timeIntervalSince1970: Double(start) / 1000)
            csv += "\(id),\"\(Self.stravaDate(date))\",Run \(id),Run,\(points - 1),\(String(format: "%.2f", speed * Double(points - 1) / 1000)),\(name)\n"
        }
        try csv.write(toFile: folder + "/activities.csv", atomically: true, encoding: .utf8)
        return folder
    }

    /// `Jan 5, 2024, 7:30:00 AM`, as Strava writes dates (UTC).
    static func stravaDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "MMM d, yyyy, h:mm:ss a"
        return formatter.string(from: date)
    }

    /// Seconds to read every file of the folder once into memory, and the bytes read.
    func readOnce(_ folder: String) -> (seconds: Double, bytes: Int) {
        let names = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).sorted()
        let start = ProcessTimer.now()
        var bytes = 0
        for name in names {
            if let data = FileManager.default.contents(atPath: folder + "/" + name) { bytes += data.count }
        }
        return (ProcessTimer.now() - start, bytes)
    }

    func rows() throws -> [Report.Row] {
        let folder = try export()
        let work = bench.options.cache + "/work/activities.db"
        var importTimes: [Double] = []
        var readTimes: [Double] = []
        var bytes = 0
        for run in 0..<bench.profile.heavyRuns {
            bench.note("record import run \(run + 1) of \(bench.profile.heavyRuns) ...")
            let read = readOnce(folder)
            readTimes.append(read.seconds)
            bytes = read.bytes
            bench.remove(work)
            let sample = ProcessTimer.run(bench.options.tally, ["record", "import", folder], environment: bench.tallyEnvironment(work))
            guard sample.status == 0 else { throw Bench.Failure(description: "tally record import exited with \(sample.status)") }
            importTimes.append(sample.seconds)
        }
        bench.note("timing tally record bests ...")
        let bests = try bench.time(["record", "bests"], database: work, runs: bench.profile.runs)
        let megabytes = Double(bytes) / 1_000_000
        let importRate = megabytes / importTimes.median, readRate = megabytes / readTimes.median
        return [
            .init(
                figure: "`tally record import` of a Strava-like export, \(Report.count(activities)) activities, \(Report.megabytes(Int64(bytes)))",
                target: "≥ reading the files once",
                measured: String(format: "%.0f MB/s (%.2f s); reading once %.0f MB/s", importRate, importTimes.median, readRate),
                pass: importRate >= readRate
            ),
            .init(
                figure: "`tally record bests`, \(Report.count(activities)) tracked activities",
                target: "≤ 100 ms", measured: Report.ms(bests.seconds), pass: bests.seconds <= 0.100
            ),
        ]
    }
}
