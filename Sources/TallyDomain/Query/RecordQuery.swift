import TallyEssentials

/// The orders a record view can be sorted in; each has a natural direction.
public enum RecordSortKey: String, Sendable, CaseIterable {
    /// Newest first.
    case date
    /// A to Z, ignoring case.
    case name
    /// Longest first.
    case duration
    /// Farthest first, records without a distance last.
    case distance
}

/// The options of `tally record list`. Date bounds stay as typed so a saved view stays relative.
public struct RecordQuery: Sendable, Equatable {
    public var categories: [String]
    public var sources: [RecordSource]
    public var since: String?
    public var until: String?
    public var search: String?
    public var sort: RecordSortKey
    public var reverse: Bool
    public var limit: Int?
    /// Deleted records are shown too (`record list --deleted`).
    public var includeDeleted = false
    /// A filter expression of records (`category:running or date.after:-1w`), on top of the other options.
    public var expression: FilterExpression?

    public init(
        categories: [String] = [], sources: [RecordSource] = [], since: String? = nil, until: String? = nil,
        search: String? = nil, sort: RecordSortKey = .date, reverse: Bool = false, limit: Int? = nil
    ) {
        self.categories = categories
        self.sources = sources
        self.since = since
        self.until = until
        self.search = search
        self.sort = sort
        self.reverse = reverse
        self.limit = limit
    }

    /// Every live record, newest first.
    public static let standard = RecordQuery()
}

extension RecordQuery {
    /// The JSON object stored in a `filter.saved` event; only options that differ from the default are written.
    public var json: JSONObject {
        var object = JSONObject()
        if !categories.isEmpty { object["categories"] = .array(categories.map { .string($0) }) }
        if !sources.isEmpty { object["sources"] = .array(sources.map { .string($0.rawValue) }) }
        if let since { object["since"] = .string(since) }
        if let until { object["until"] = .string(until) }
        if let search { object["search"] = .string(search) }
        if sort != .date { object["sort"] = .string(sort.rawValue) }
        if reverse { object["reverse"] = .bool(true) }
        if let limit { object["limit"] = .int(Int64(limit)) }
        if includeDeleted { object["deleted"] = .bool(true) }
        if let expression { object["expression"] = .string(expression.canonical) }
        return object
    }

    /// Reads a stored filter object; unknown keys are ignored, malformed values fall back to the default.
    public init(json object: JSONObject) {
        self.init()
        categories = object["categories"]?.arrayValue?.compactMap(\.stringValue) ?? []
        sources = object["sources"]?.arrayValue?.compactMap { $0.stringValue.flatMap(RecordSource.init(rawValue:)) } ?? []
        since = object["since"]?.stringValue
        until = object["until"]?.stringValue
        search = object["search"]?.stringValue
        if let raw = object["sort"]?.stringValue, let value = RecordSortKey(rawValue: raw) { sort = value }
        reverse = object["reverse"]?.boolValue ?? false
        if let value = object["limit"]?.intValue, value > 0 { limit = Int(value) }
        includeDeleted = object["deleted"]?.boolValue ?? false
        // Stored in the canonical English form; every door checks it parses (`EventRules`).
        if let raw = object["expression"]?.stringValue { expression = try? FilterParser.parse(raw, subject: .records) }
    }
}
