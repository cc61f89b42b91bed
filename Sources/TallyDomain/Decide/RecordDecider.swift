
/// The record half of the decider.
extension Decider {
    static func decideRecord(_ command: Command, state: ReadModel, context: DecisionContext, into builder: inout DecisionBuilder) throws(DomainError) {
        switch command {
        case .logRecord(let input):
            var fields = RecordFields(
                name: try Validation.name(input.name),
                category: try Validation.category(input.category),
                durationSeconds: try Validation.duration(input.duration),
                distanceMeters: try input.distance.map { raw throws(DomainError) in try Validation.distance(raw) },
                place: try input.place.flatMap { raw throws(DomainError) in try Validation.line(raw, field: "place") },
                date: try input.date.map { raw throws(DomainError) in try Validation.activityDate(raw, now: context.now, zone: context.zone) } ?? context.now,
                note: try input.note.flatMap { raw throws(DomainError) in try Validation.note(raw) },
                source: input.source,
                effort: try input.effort.map { raw throws(DomainError) in try Validation.effort(raw) }
            )
            fields.gear = try gearForNew(input.gear, noGear: input.noGear, category: fields.category, state: state)
            let id = context.makeID()
            builder.append(.recordLogged(fields), to: id)
            builder.affected.append(id)

        case .editRecord(let ref, let input):
            let record = try ReferenceResolver.record(ref, in: state)
            if record.deleted { throw .itemDeleted(.record, number: record.number) }
            builder.affected.append(record.id)
            var changes = try recordChanges(input, to: record, context: context)
            changes.gear = try gearChange(input, record: record, category: changes.category ?? record.category, state: state)
            if changes.isEmpty {
                builder.notices.append(.recordUnchanged(number: record.number))
            } else {
                builder.append(.recordEdited(changes), to: record.id)
            }
            // A new date of one leg of a multisport activity moves its other legs by as much (the
            // activity stays whole); every other change is the leg's own.
            if let date = changes.date {
                let (shift, overflow) = date.subtractingReportingOverflow(record.date)
                for leg in state.legs(of: record) where leg.id != record.id && !leg.deleted && !overflow {
                    let (moved, past) = leg.date.addingReportingOverflow(shift)
                    guard !past, Timestamp.supportedRange.contains(moved) else {
                        throw .invalid(.outsideLimits(reason: "moving leg \(leg.number) with it would put it outside the years 0001-9999"))
                    }
                    builder.append(.recordEdited(RecordChanges(date: moved)), to: leg.id)
                    builder.affected.append(leg.id)
                }
            }

        case .deleteRecords(let refs):
            var seen: Set<String> = []
            for ref in refs {
                let named = try ReferenceResolver.record(ref, in: state)
                // A leg of a multisport activity goes with its whole activity.
                for record in state.legs(of: named) {
                    guard seen.insert(record.id).inserted else { continue }
                    if record.deleted {
                        if record.id == named.id {
                            builder.affected.append(record.id)
                            builder.notices.append(.recordAlreadyDeleted(number: record.number))
                        }
                    } else {
                        builder.affected.append(record.id)
                        builder.append(.recordDeleted, to: record.id)
                    }
                }
            }

        case .saveRecordFilter(let query):
            let filter = try validated(query, context: context).json
            if state.filters[.records] == filter {
                builder.notices.append(.filterUnchanged(.records))
            } else {
                builder.append(.filterSaved(scope: .records, filter: filter), to: FilterScope.records.stream)
            }

        default:
            preconditionFailure("not a record command: \(command)")
        }
    }

    /// Checks the parts of a record query the user typed freely.
    public static func validated(_ query: RecordQuery, context: DecisionContext) throws(DomainError) -> RecordQuery {
        var query = query
        var categories: [String] = []
        for raw in query.categories {
            let category = try Validation.category(raw)
            if !categories.contains(category) { categories.append(category) }
        }
        query.categories = categories
        if let raw = query.since { query.since = try Validation.whenBound(raw, now: context.now, zone: context.zone) }
        if let raw = query.until { query.until = try Validation.whenBound(raw, now: context.now, zone: context.zone) }
        if let raw = query.search { query.search = try Validation.search(raw) }
        if let limit = query.limit, limit < 1 { throw .invalid(.invalidLimit(String(limit))) }
        if let expression = query.expression { _ = try FilterProgram(expression, now: context.now, zone: context.zone) }
        return query
    }

    private static func recordChanges(_ input: RecordEditInput, to record: Record, context: DecisionContext) throws(DomainError) -> RecordChanges {
        var changes = RecordChanges()
        if let raw = input.name {
            let name = try Validation.name(raw)
            if name != record.name { changes.name = name }
        }
        if let raw = input.category {
            let category = try Validation.category(raw)
            if category != record.category { changes.category = category }
        }
        if let raw = input.duration {
            let seconds = try Validation.duration(raw)
            if seconds != record.durationSeconds { changes.durationSeconds = seconds }
        }
        if let raw = input.distance {
            let meters = raw.lowercased() == "none" ? nil : try Validation.distance(raw)
            if meters != record.distanceMeters { changes.distanceMeters = .some(meters) }
        }
        if let raw = input.place {
            let place = raw.lowercased() == "none" ? nil : try Validation.line(raw, field: "place")
            if place != record.place { changes.place = .some(place) }
        }
        if let raw = input.date {
            let date = try Validation.activityDate(raw, now: context.now, zone: context.zone)
            if date != record.date { changes.date = date }
        }
        if let raw = input.note {
            let note = raw.lowercased() == "none" ? nil : try Validation.note(raw)
            if note != record.note { changes.note = .some(note) }
        }
        if input.noEffort {
            if record.effort != nil { changes.effort = .some(nil) }
        } else if let raw = input.effort {
            let effort = try Validation.effort(raw)
            if effort != record.effort { changes.effort = .some(effort) }
        }
        return changes
    }
}
