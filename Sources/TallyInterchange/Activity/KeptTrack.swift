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

    /// The track's file parsed again.
    public func parsed(_ track: TrackSummary) throws -> Result<(format: String, activity: ParsedActivity), Problem> {
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

    /// Today's analysis of a record's file: the track summary `record import` would compute now,
    /// in the record's own category.
    public func analysis(of record: Record) throws -> Result<TrackSummary, Problem> {
        guard let track = record.track else { return .failure(.missing) }
        switch try parsed(track) {
        case .failure(let problem): return .failure(problem)
        case .success(let (format, activity)):
            do {
                let fields = try ActivityFile.fields(activity, format: format, sha256: track.sha256, name: record.name, category: record.category)
                guard let fresh = fields.track else { return .failure(.missing) }
                return .success(fresh)
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
                case .success(let fresh):
                    if fresh == track { report.unchanged += 1 } else { items.append(RecordAnalysis(stream: record.id, track: fresh)) }
                }
            }
            return try Decider.decide(.reanalyzeRecords(items), state: state, context: context)
        })
        report.analyzed = outcome.decision.affected.compactMap { outcome.state.record(id: $0) }
        report.outcome = outcome
        return report
    }
}
