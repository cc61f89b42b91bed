#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain
import TallyEssentials
import TallyPlatform
import TallyEngine

/// Why one file or export row was left out of an import.
public struct ActivitySkip: Sendable, Equatable {
    /// The file, or `activities.csv line 12`.
    public var source: String
    public var problem: ActivityFileProblem
}

/// Stretches of a record left out of its best efforts: faster than the world record for their
/// distance (a GPS error, a ride recorded as a run).
public struct DroppedEfforts: Sendable, Equatable {
    /// The record's stream.
    public var stream: String
    public var category: String
    public var efforts: [TrackEffort]

    public init(stream: String, category: String, efforts: [TrackEffort]) {
        self.stream = stream
        self.category = category
        self.efforts = efforts
    }
}

/// What `record import` did.
public struct ActivityImportReport: Sendable {
    /// Records logged by this import (restored ones included), in import order.
    public var imported: [Record] = []
    /// Sources whose activity was already in the log.
    public var alreadyPresent: [String] = []
    public var skipped: [ActivitySkip] = []
    /// Files imported with a warning: cut short, what they held was imported.
    public var cutShort: [String] = []
    /// Per imported record, the efforts left out for beating the world record.
    public var droppedEfforts: [DroppedEfforts] = []
    /// Bytes of files read (as stored on disk) and the files read.
    public var bytesRead = 0
    public var filesRead = 0
    public var outcome: CommandOutcome?
}

/// Imports device files and exports as one command: every file is read, hashed and measured,
/// its original kept in the blob store, and all new records appended in one transaction.
///
/// What a path may be: a GPX, TCX or FIT file (each also gzipped); a folder, searched for those;
/// a Strava bulk-export folder (`activities.csv` plus `activities/`) or its `activities.csv`;
/// a Garmin Connect `Activities.csv`. The world is injected: decompression (zlib lives in its
/// own module) and a progress callback.
public struct ActivityImport {
    public typealias Inflate = ([UInt8], Int) throws -> [UInt8]

    public let blobs: BlobStore
    public let inflate: Inflate
    public let zone: Zone
    /// Called with the bytes read so far and the total, inside the import's transaction: what it
    /// throws (Ctrl-C) ends the import with nothing appended or stored.
    public let progress: (Int, Int) throws -> Void

    public init(blobs: BlobStore, zone: Zone, inflate: @escaping Inflate, progress: @escaping (Int, Int) throws -> Void) {
        self.blobs = blobs
        self.zone = zone
        self.inflate = inflate
        self.progress = progress
    }

    /// One thing to read: a track file (by a name inside `folder` when found in a folder, else as
    /// the user named it), or a CSV with the folder its file names are relative to (and never leave).
    public enum Job {
        case track(path: String, folder: String?)
        case csv(path: String, folder: String, inFolder: Bool)
    }

    /// File names (lowercased) tally reads as tracks.
    public static let trackSuffixes = [".gpx", ".tcx", ".fit", ".gpx.gz", ".tcx.gz", ".fit.gz"]

    /// Reads every path and runs the import through `dispatcher` as one command.
    ///
    /// A path that does not exist is an error before anything is read (nothing is appended).
    public func run(_ paths: [String], dispatcher: Dispatcher) throws -> ActivityImportReport {
        let jobs = try plan(paths)
        let total = jobs.reduce(0) { $0 + estimatedBytes($1) }
        var report = ActivityImportReport()
        let outcome = try dispatcher.execute(deciding: { state, context in
            var items: [ImportedRecord] = []
            var sources: [String: String] = [:]
            for job in jobs {
                switch job {
                case .track(let path, let folder):
                    for item in try track(path, folder: folder, name: nil, category: nil, source: path, report: &report, total: total) {
                        items.append(item)
                        sources[item.stream] = sources[item.stream] ?? path
                    }
                case .csv(let path, let folder, let inFolder):
                    for item in try csv(path, folder: folder, inFolder: inFolder, report: &report, total: total) {
                        items.append(item.record)
                        sources[item.record.stream] = sources[item.record.stream] ?? item.source
                    }
                }
            }
            try progress(report.bytesRead, total)
            let decision = try Decider.decide(.importRecords(items), state: state, context: context)
            report.alreadyPresent = decision.notices.compactMap { notice in
                if case .recordAlreadyImported(let id) = notice { sources[id] ?? id } else { nil }
            }
            return decision
        })
        report.imported = outcome.decision.affected.compactMap { outcome.state.record(id: $0) }
        let logged = Set(outcome.decision.affected)
        report.droppedEfforts = report.droppedEfforts.filter { logged.contains($0.stream) }
        report.outcome = outcome
        return report
    }

    /// The files and CSVs behind the paths, in a stable order; missing paths are refused.
    public func plan(_ paths: [String]) throws -> [Job] {
        var jobs: [Job] = []
        let files = FileManager.default
        for path in paths {
            guard let isDirectory = FileProbe.isDirectory(path) else { throw ActivityImportError.notFound(path) }
            if !isDirectory {
                let lower = path.lowercased()
                let folder = PathText.deletingLastComponent(path)
                jobs.append(lower.hasSuffix(".csv") ? .csv(path: path, folder: folder.isEmpty ? "." : folder, inFolder: false) : .track(path: path, folder: nil))
                continue
            }
            for list in ["activities.csv", "Activities.csv"] {
                let csv = PathText.appending(path, list)
                if files.fileExists(atPath: csv), (try? files.contentsOfDirectory(atPath: path))?.contains(list) == true {
                    jobs.append(.csv(path: csv, folder: path, inFolder: true))
                }
            }
            if jobs.contains(where: { if case .csv(_, let folder, _) = $0 { folder == path } else { false } }) { continue }
            let found = ((try? files.subpathsOfDirectory(atPath: path)) ?? [])
                .filter { name in Self.trackSuffixes.contains { name.lowercased().hasSuffix($0) } }
                .sorted()
            jobs += found.map { .track(path: PathText.appending(path, $0), folder: path) }
        }
        return jobs
    }

    /// Reads a file: by its name inside `folder`, never leaving it, or (no folder) as the user named it.
    /// What cannot be read is reported as skipped (nil).
    private func read(_ path: String, folder: String?, shown: String, source: String, report: inout ActivityImportReport) -> [UInt8]? {
        let result = if let folder {
            ContainedFile.contents(of: Self.relative(path, to: folder), inside: folder, limit: ActivityLimits.maxFileBytes)
        } else {
            ContainedFile.contents(of: path, limit: ActivityLimits.maxFileBytes)
        }
        switch result {
        case .success(let bytes):
            return bytes
        case .failure(let problem):
            let skipped: ActivityFileProblem = switch problem {
            case .missing: .missingFile(shown)
            case .outsideFolder: .outsideFolder(shown)
            case .unreadable(let reason): .unreadable(shown, reason: reason)
            case .notAFile: .notAFile(shown)
            case .tooLarge: .tooLarge
            }
            report.skipped.append(ActivitySkip(source: source, problem: skipped))
            return nil
        }
    }

    /// `path` without the `folder/` it was made from.
    public static func relative(_ path: String, to folder: String) -> String {
        let prefix = PathText.appending(folder, "x").dropLast()
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// Reads, decompresses, hashes and measures one track file, keeping the original as a blob:
    /// its record, or its records when it holds several activities (`FileSplit`).
    private func track(_ path: String, folder: String?, shown: String? = nil, readSource: String? = nil, name: String?, category: String?, source: String, report: inout ActivityImportReport, total: Int) throws -> [ImportedRecord] {
        guard let stored = read(path, folder: folder, shown: shown ?? path, source: readSource ?? source, report: &report) else { return [] }
        report.bytesRead += stored.count
        report.filesRead += 1
        try progress(report.bytesRead, total)
        let gzipped = stored.count >= 2 && stored[0] == 0x1F && stored[1] == 0x8B
        let content: [UInt8]
        if gzipped {
            do {
                content = try inflate(stored, ActivityLimits.maxFileBytes)
            } catch {
                report.skipped.append(ActivitySkip(source: source, problem: .corrupt("the gzip data cannot be read (\(ErrorWords.text(error)))")))
                return []
            }
        } else {
            content = stored
        }
        let reading: FileReading
        do {
            reading = try ActivityFile.read(content, name: name, category: category, zone: zone)
            if reading.truncated { report.cutShort.append(source) }
        } catch {
            report.skipped.append(ActivitySkip(source: source, problem: error))
            return []
        }
        guard let sha256 = reading.records.first?.fields.track?.sha256 else { return [] }
        try blobs.putBlob(Blob(sha256: sha256, encoding: gzipped ? .gzip : .identity, bytes: stored))
        for record in reading.records where !record.dropped.isEmpty {
            report.droppedEfforts.append(DroppedEfforts(stream: record.stream, category: record.fields.category, efforts: record.dropped))
        }
        return reading.records.map { ImportedRecord(stream: $0.stream, fields: $0.fields) }
    }

    /// The rows of a Strava or Garmin CSV: each with its track file when it names one, else from the row's figures.
    private func csv(_ path: String, folder: String, inFolder: Bool, report: inout ActivityImportReport, total: Int) throws -> [(record: ImportedRecord, source: String)] {
        let name = PathText.lastComponent(path)
        guard let data = read(path, folder: inFolder ? folder : nil, shown: path, source: path, report: &report) else { return [] }
        report.bytesRead += data.count
        try progress(report.bytesRead, total)
        let parsed: (kind: ActivityCSV.Kind, rows: [CSVActivity], skipped: [(line: Int, reason: String)])
        do {
            parsed = try ActivityCSV.parse(Array(data), zone: zone)
        } catch {
            report.skipped.append(ActivitySkip(source: path, problem: error))
            return []
        }
        for skip in parsed.skipped {
            report.skipped.append(ActivitySkip(source: "\(name) line \(skip.line)", problem: .corrupt(skip.reason)))
        }
        var result: [(record: ImportedRecord, source: String)] = []
        for row in parsed.rows {
            let source = "\(name) line \(row.line)"
            let category = SportCategory.category(row.sport)
            // The description is the note; one that is blank or breaks the note's limits is left out.
            let note = row.note.flatMap { try? Validation.note($0) }
            if let file = row.filename {
                // The row names a file inside the export folder; it never leads out of it.
                let trackPath = PathText.appending(folder, file)
                let contained = file.hasPrefix("/") ? file : trackPath
                // The note goes to the file's first record (a multisport file's first leg).
                for (index, var item) in try track(contained, folder: folder, shown: file, readSource: source, name: row.name, category: category, source: trackPath, report: &report, total: total).enumerated() {
                    if index == 0 { item.fields.note = note ?? item.fields.note }
                    result.append((item, trackPath))
                }
                continue
            }
            guard let seconds = row.elapsedSeconds, seconds > 0 else {
                report.skipped.append(ActivitySkip(source: source, problem: .noTimestamps))
                continue
            }
            let fields = RecordFields(
                name: row.name.flatMap { try? Validation.name($0) } ?? (category.prefix(1).uppercased() + category.dropFirst()),
                category: category, durationSeconds: seconds,
                distanceMeters: row.distanceMeters.flatMap { $0.isFinite && $0 > 0 ? ($0 * 10).rounded() / 10 : nil },
                date: row.date, note: note, source: .import
            )
            // The limits every door shares: a row past them is refused, not stored to break a later import.
            if let reason = EventRules.recordProblem(fields) {
                report.skipped.append(ActivitySkip(source: source, problem: .impossible(reason)))
                continue
            }
            result.append((ImportedRecord(stream: ImportedRecord.stream(rowKey: row.key), fields: fields), source))
        }
        return result
    }

    /// The bytes a job will read: the file, or the CSV and every track file its rows name.
    private func estimatedBytes(_ job: Job) -> Int {
        switch job {
        case .track(let path, let folder):
            return folder.map { ContainedFile.size(Self.relative(path, to: $0), inside: $0) } ?? Self.size(path)
        case .csv(let path, let folder, _):
            guard let data = FileManager.default.contents(atPath: path),
                  let rows = try? ActivityCSV.parse(Array(data), zone: zone).rows else { return Self.size(path) }
            return data.count + rows.reduce(0) { sum, row in
                sum + (row.filename.map { ContainedFile.size($0, inside: folder) } ?? 0)
            }
        }
    }

    private static func size(_ path: String) -> Int {
        FileProbe.size(path)
    }
}

/// An import that cannot start.
public enum ActivityImportError: Error, Sendable, Equatable {
    case notFound(String)
}
