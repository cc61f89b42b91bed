
/// A recurring rule brought in from another tool (a Taskwarrior template, a todo.txt `rec:` line).
///
/// `stream` is derived from the source item like an imported todo's, so a second import finds it.
public struct ImportedSeries: Sendable, Equatable {
    public var stream: String
    public var source: ImportSource
    public var fields: SeriesFields
    /// The rule was ended there (a deleted Taskwarrior template).
    public var ended: Bool

    public init(stream: String, source: ImportSource, fields: SeriesFields, ended: Bool = false) {
        self.stream = stream
        self.source = source
        self.fields = fields
        self.ended = ended
    }
}

extension Decider {
    /// Starts each imported series the log does not have yet, before any todo refers to it; resumes one
    /// that the undo of its import ended (`earlier`, by stream), unless the source ended it too.
    static func decideImportedSeries(_ series: [ImportedSeries], earlier: [String: ImportBaseline], state: ReadModel, into builder: inout DecisionBuilder) {
        var seen: Set<String> = []
        for item in series where seen.insert(item.stream).inserted {
            if let existing = state.series[item.stream] {
                if existing.ended, !item.ended, earlier[item.stream]?.importUndone == true {
                    builder.append(.seriesResumed, to: item.stream, id: ImportBaseline.eventID(stream: item.stream, version: state.version(of: item.stream) + 1))
                }
                continue
            }
            guard state.version(of: item.stream) == 0 else { continue }
            builder.append(.seriesStarted(item.fields), to: item.stream, id: NameUUID.make(item.stream + "#1"))
            if item.ended { builder.append(.seriesEnded, to: item.stream, id: NameUUID.make(item.stream + "#2")) }
        }
    }
}
