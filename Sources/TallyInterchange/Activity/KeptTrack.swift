import TallyDomain
import TallyEssentials
import TallyEngine

/// The original file of an imported record, read back from the blob store (kept as it came,
/// gzipped or not) and parsed again: what `record reanalyze` and `record show`'s laps, splits and
/// zones are computed from.
public struct KeptTrack {
    public typealias Inflate = ([UInt8], Int) throws -> [UInt8]

    let blobs: BlobStore
    let inflate: Inflate

    public init(blobs: BlobStore, inflate: @escaping Inflate) {
        self.blobs = blobs
        self.inflate = inflate
    }

    /// Why a kept file could not be read again.
    public enum Problem: Error, Sendable, Equatable {
        /// The blob store has no file by the track's hash (a log imported without its files).
        case missing
        /// The stored bytes do not hash to their name.
        case damaged
        /// The file itself (as `record import` would report it).
        case file(ActivityFileProblem)
    }

    /// The decompressed content of the track's file, checked against its name.
    public func content(_ track: TrackSummary) throws -> Result<[UInt8], Problem> {
        guard let blob = try blobs.blob(track.sha256) else { return .failure(.missing) }
        var bytes = blob.bytes
        if blob.encoding == .gzip {
            do {
                bytes = try inflate(bytes, ActivityLimits.maxFileBytes)
            } catch {
                return .failure(.file(.corrupt("the gzip data cannot be read (\(ErrorWords.text(error)))")))
            }
        }
        guard SHA256.hex(SHA256.digest(bytes)) == track.sha256 else { return .failure(.damaged) }
        return .success(bytes)
    }

    /// The whole of the track's file parsed again.
    public func whole(_ track: TrackSummary) throws -> Result<(format: String, activity: ParsedActivity), Problem> {
        switch try content(track) {
        case .failure(let problem): return .failure(problem)
        case .success(let bytes):
            do {
                return .success(try ActivityFile.parse(bytes))
            } catch {
                return .failure(.file(error))
            }
        }
    }

    /// The record's own part of its file parsed again: the whole file, or the leg or day the
    /// track is (`FileSplit`).
    public func parsed(_ track: TrackSummary) throws -> Result<(format: String, activity: ParsedActivity), Problem> {
        switch try whole(track) {
        case .failure(let problem): return .failure(problem)
        case .success(let (format, activity)):
            guard let part = track.part else { return .success((format, activity)) }
            do {
                let parts = try FileSplit.parts(activity)
                guard parts.count == part.count, let piece = parts.dropFirst(part.index - 1).first else {
                    return .failure(.file(.impossible("the file now holds \(parts.count) records; this is record \(part.index) of \(part.count)")))
                }
                return .success((format, piece.activity))
            } catch {
                return .failure(.file(error))
            }
        }
    }

    /// What today's analysis makes of a record's file.
    public enum Analysis: Sendable {
        /// The record's track summary, computed again (its own leg or day when it is one).
        case summary(TrackSummary, dropped: [TrackEffort])
        /// The record holds a whole file that today is several records (a multisport file, a GPX
        /// file of several days, imported by an earlier version): the records it becomes, the first
        /// keeping the record's stream. Dates follow the record's (an edited date moves them all).
        case split([FileRecord])
    }

    /// Today's analysis of a record's file: the track summary `record import` would compute now,
    /// in the record's own category, or the records the file becomes when it is several.
    public func analysis(of record: Record) throws -> Result<Analysis, Problem> {
        guard let track = record.track else { return .failure(.missing) }
        switch try whole(track) {
        case .failure(let problem): return .failure(problem)
        case .success(let (format, activity)):
            do {
                let parts = try FileSplit.parts(activity)
                if let part = track.part {
                    guard parts.count == part.count, let piece = parts.dropFirst(part.index - 1).first else {
                        return .failure(.file(.impossible("the file now holds \(parts.count) records; this is record \(part.index) of \(part.count)")))
                    }
                    let fresh = try ActivityFile.record(piece.activity, format: format, sha256: track.sha256, name: record.name, category: record.category, part: piece.part)
                    guard let summary = fresh.fields.track else { return .failure(.missing) }
                    return .success(.summary(summary, dropped: fresh.dropped))
                }
                if parts.count == 1 {
                    let fresh = try ActivityFile.record(activity, format: format, sha256: track.sha256, name: record.name, category: record.category, part: nil)
                    guard let summary = fresh.fields.track else { return .failure(.missing) }
                    return .success(.summary(summary, dropped: fresh.dropped))
                }
                // The whole file's start as read today (no time zone applied) against the record's date:
                // the shift an import's zone (or the user's edit) put on it, given to every part.
                let whole = try? ActivityFile.record(activity, format: format, sha256: track.sha256, name: nil, category: nil, part: nil)
                let shift = whole.map { record.date &- $0.fields.date } ?? 0
                var records: [FileRecord] = []
                for piece in parts {
                    // The whole record's category is not its legs' (each takes its sport's); a day keeps it.
                    let category = piece.part?.kind == .leg ? nil : record.category
                    var fresh = try ActivityFile.record(piece.activity, format: format, sha256: track.sha256, name: record.name, category: category, part: piece.part)
                    fresh.fields.date = fresh.fields.date &+ shift
                    records.append(fresh)
                }
                return .success(.split(records))
            } catch {
                return .failure(.file(error))
            }
        }
    }
}

/// What `record reanalyze` did.
public struct ReanalysisReport: Sendable {
    /// Records whose summary changed, in number order.
    public var analyzed: [Record] = []
    /// Records read again whose summary was already today's.
    public var unchanged = 0
    /// Records whose file could not be read again, with why.
    public var skipped: [(record: Record, problem: KeptTrack.Problem)] = []
    /// Records that held a whole file of several activities, by number, with how many records it became.
    public var split: [(number: Int, parts: Int)] = []
    /// Per record read again, the efforts left out for beating the world record.
    public var droppedEfforts: [DroppedEfforts] = []
    public var outcome: CommandOutcome?
}

/// `record reanalyze`: every imported record whose analysis is older than today's
/// (`SensorAnalysis.version`), or every one with `all`, read again from its kept file; the new
/// summaries are appended as `record.edited` events in one command (one undo step).
public struct RecordReanalysis {
    let kept: KeptTrack

    public init(kept: KeptTrack) {
        self.kept = kept
    }

    public func run(all: Bool, dispatcher: Dispatcher) throws -> ReanalysisReport {
        var report = ReanalysisReport()
        let outcome = try dispatcher.execute(deciding: { state, context in
            report = ReanalysisReport()
            var items: [RecordAnalysis] = []
            let records = state.records.filter { !$0.deleted && $0.track != nil }.sorted { $0.number < $1.number }
            for record in records {
                guard let track = record.track, all || track.analysisVersion < SensorAnalysis.version else { continue }
                switch try kept.analysis(of: record) {
                case .failure(let problem):
                    report.skipped.append((record, problem))
                case .success(.summary(let fresh, let dropped)):
                    if !dropped.isEmpty { report.droppedEfforts.append(DroppedEfforts(stream: record.id, category: record.category, efforts: dropped)) }
                    if fresh == track { report.unchanged += 1 } else { items.append(RecordAnalysis(stream: record.id, track: fresh)) }
                case .success(.split(let parts)):
                    guard let first = parts.first, let track = first.fields.track else { continue }
                    let others = parts.dropFirst().map { ImportedRecord(stream: $0.stream, fields: $0.fields) }
                    items.append(RecordAnalysis(stream: record.id, track: track, split: RecordSplit(first: first.fields, others: others)))
                    report.split.append((record.number, parts.count))
                    for part in parts where !part.dropped.isEmpty {
                        report.droppedEfforts.append(DroppedEfforts(stream: part.stream, category: part.fields.category, efforts: part.dropped))
                    }
                }
            }
            return try Decider.decide(.reanalyzeRecords(items), state: state, context: context)
        })
        report.analyzed = outcome.decision.affected.compactMap { outcome.state.record(id: $0) }
        report.outcome = outcome
        return report
    }
}
