import TallyEssentials

/// The fields a series is started with: its rule, its first due date, and what each instance is created with.
public struct SeriesFields: Sendable, Equatable {
    public var rule: RecurrenceRule
    /// The due date (or instant) of the first occurrence; a fixed schedule counts from it.
    public var start: Due
    /// The last day an occurrence may fall on; nil for no end.
    public var until: LocalDate?
    public var title: String
    public var tags: [String]
    public var priority: Priority?
    public var note: String?

    public init(rule: RecurrenceRule, start: Due, until: LocalDate? = nil, title: String, tags: [String] = [], priority: Priority? = nil, note: String? = nil) {
        self.rule = rule
        self.start = start
        self.until = until
        self.title = title
        self.tags = tags
        self.priority = priority
        self.note = note
    }
}

/// What a `series.changed` event changes. `nil` means unchanged; for nullable fields `.some(nil)` clears.
public struct SeriesChanges: Sendable, Equatable {
    public var period: RecurrencePeriod?
    public var anchor: RecurrenceAnchor?
    public var until: LocalDate??
    public var title: String?
    public var tags: [String]?
    public var priority: Priority??
    public var note: String??

    public init(
        period: RecurrencePeriod? = nil, anchor: RecurrenceAnchor? = nil, until: LocalDate?? = nil, title: String? = nil,
        tags: [String]? = nil, priority: Priority?? = nil, note: String?? = nil
    ) {
        self.period = period
        self.anchor = anchor
        self.until = until
        self.title = title
        self.tags = tags
        self.priority = priority
        self.note = note
    }

    /// True when nothing would change.
    public var isEmpty: Bool {
        period == nil && anchor == nil && until == nil && title == nil && tags == nil && priority == nil && note == nil
    }
}

/// A recurring todo's rule as the read model knows it. Its instances are ordinary todos whose `series` names it.
public struct Series: Sendable, Equatable, Identifiable {
    /// The stream id: a lowercase UUID.
    public var id: String
    public var fields: SeriesFields
    /// True once `series.ended`: no further instances are created.
    public var ended: Bool
    public var createdAt: Int64
    public var updatedAt: Int64
    public var version: Int

    public init(id: String, fields: SeriesFields, ended: Bool = false, createdAt: Int64, updatedAt: Int64, version: Int = 1) {
        self.id = id
        self.fields = fields
        self.ended = ended
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.version = version
    }

    /// Sets exactly the fields a change names.
    public mutating func apply(_ changes: SeriesChanges) {
        if let period = changes.period { fields.rule.period = period }
        if let anchor = changes.anchor { fields.rule.anchor = anchor }
        if let until = changes.until { fields.until = until }
        if let title = changes.title { fields.title = title }
        if let tags = changes.tags { fields.tags = tags }
        if let priority = changes.priority { fields.priority = priority }
        if let note = changes.note { fields.note = note }
    }
}

/// The series of the read model: its own small structure, keyed by stream id.
public struct SeriesBook: Sendable, Equatable {
    public private(set) var byID: [String: Series] = [:]

    public init() {}

    public subscript(id: String) -> Series? { byID[id] }

    public var isEmpty: Bool { byID.isEmpty }

    /// Every series, ordered by id (the snapshot order).
    public var sorted: [Series] { byID.values.sorted { $0.id < $1.id } }

    mutating func insert(_ series: Series) { byID[series.id] = series }

    mutating func update(id: String, _ change: (inout Series) -> Void) {
        guard byID[id] != nil else { return }
        change(&byID[id]!)
    }
}

/// Ids of the instances of a series.
public enum SeriesInstance {
    /// The todo id of the occurrence of `series` on `date`: the same on every device, so two replicas
    /// that create the same occurrence create one todo.
    public static func id(series: String, occurrence date: LocalDate) -> String {
        NameUUID.make("series:\(series):\(date)")
    }
}
