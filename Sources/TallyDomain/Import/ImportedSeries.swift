
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
    /// Starts each imported series the log does not have yet, before any todo refers to it.
    static func decideImportedSeries(_ series: [ImportedSeries], state: ReadModel, into builder: inout DecisionBuilder) {
        var seen: Set<String> = []
        for item in series where state.version(of: item.stream) == 0 && seen.insert(item.stream).inserted {
            builder.append(.seriesStarted(item.fields), to: item.stream, id: NameUUID.make(item.stream + "#1"))
            if item.ended { builder.append(.seriesEnded, to: item.stream, id: NameUUID.make(item.stream + "#2")) }
        }
    }
}
