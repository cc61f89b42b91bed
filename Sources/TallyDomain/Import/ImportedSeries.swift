
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
    ///
    /// A series imported before takes the rule changes its template had in the source since the last
    /// import (`earlier[stream].series`, what the imports made of it): period, `rtype`, `until`, and the
    /// title, tags and priority of the instances to come, as one `series.changed`; a field changed only in
    /// tally keeps tally's value. A moved start (`due`), or a rule tally has no period for
    /// (`unreadable`), changes nothing of the series and says why. An ended series stays ended.
    static func decideImportedSeries(
        _ series: [ImportedSeries], unreadable: [UnreadableRule] = [], earlier: [String: ImportBaseline], state: ReadModel,
        into builder: inout DecisionBuilder
    ) {
        var seen: Set<String> = []
        for item in series where seen.insert(item.stream).inserted {
            if let existing = state.series[item.stream] {
                var version = state.version(of: item.stream)
                var ended = existing.ended
                if existing.ended, !item.ended, earlier[item.stream]?.importUndone == true {
                    version += 1
                    builder.append(.seriesResumed, to: item.stream, id: ImportBaseline.eventID(stream: item.stream, version: version))
                    ended = false
                }
                guard !ended else { continue }
                let base = earlier[item.stream]?.series ?? existing.fields
                if item.fields.start != base.start {
                    builder.notices.append(.importSeriesRefused(source: item.source, reason: .startMoved(from: base.start, to: item.fields.start)))
                    continue
                }
                let (changes, names) = ruleChanges(item.fields, base: base, current: existing.fields)
                guard !changes.isEmpty else { continue }
                builder.append(.seriesChanged(changes), to: item.stream, id: ImportBaseline.eventID(stream: item.stream, version: version + 1))
                let open = state.todos.first { $0.series == item.stream && !$0.completed && !$0.deleted }
                builder.notices.append(.importSeriesUpdated(source: item.source, open: open?.number, changes: names))
                continue
            }
            guard state.version(of: item.stream) == 0 else { continue }
            builder.append(.seriesStarted(item.fields), to: item.stream, id: NameUUID.make(item.stream + "#1"))
            if item.ended { builder.append(.seriesEnded, to: item.stream, id: NameUUID.make(item.stream + "#2")) }
        }
        for rule in unreadable where seen.insert(rule.stream).inserted && state.series[rule.stream].map({ !$0.ended }) == true {
            builder.notices.append(.importSeriesRefused(source: rule.source, reason: rule.reason))
        }
    }

    /// What the source changed in a rule since `base` and tally does not have already.
    private static func ruleChanges(_ source: SeriesFields, base: SeriesFields, current: SeriesFields) -> (SeriesChanges, [ImportChange]) {
        var changes = SeriesChanges()
        var names: [ImportChange] = []
        func changed<Value: Equatable>(_ field: KeyPath<SeriesFields, Value>) -> Bool {
            source[keyPath: field] != current[keyPath: field] && source[keyPath: field] != base[keyPath: field]
        }
        if changed(\.rule.period) { changes.period = source.rule.period; names.append(.recur) }
        if changed(\.rule.anchor) { changes.anchor = source.rule.anchor; names.append(.recurFrom) }
        if changed(\.until) { changes.until = .some(source.until); names.append(.until) }
        if changed(\.title) { changes.title = source.title; names.append(.title) }
        if changed(\.tags) { changes.tags = source.tags; names.append(.tags) }
        if changed(\.priority) { changes.priority = .some(source.priority); names.append(.priority) }
        return (changes, names)
    }
}
