import TallyEssentials

/// A piece of equipment activities are done with (shoes, a bike), on its own UUID stream.
public struct Gear: Sendable, Equatable, Identifiable {
    /// The stream id: a lowercase UUID.
    public var id: String
    /// 1, 2, 3, ... in the order the gear was added.
    public var number: Int
    public var name: String
    /// The category of activity it is for (`running`); only activities of that category use it.
    public var category: String
    /// The distance after which `gear list` warns that it is worn out; nil for none.
    public var retireAtMeters: Double?
    /// No longer in use: never given to new activities by default, listed apart.
    public var retired: Bool
    /// Taken back (`tally undo` of `gear add`): not listed, its name free again.
    public var removed: Bool
    public var createdAt: Int64
    public var updatedAt: Int64

    public init(
        id: String, number: Int, name: String, category: String, retireAtMeters: Double? = nil, retired: Bool = false,
        removed: Bool = false, createdAt: Int64, updatedAt: Int64
    ) {
        self.id = id
        self.number = number
        self.name = name
        self.category = category
        self.retireAtMeters = retireAtMeters
        self.retired = retired
        self.removed = removed
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The fields `gear.changed` may set, as they are now.
    public var changeable: GearChanges {
        GearChanges(name: name, retireAtMeters: .some(retireAtMeters), retired: retired, removed: removed)
    }
}

/// What `gear.added` holds.
public struct GearFields: Sendable, Equatable {
    public var name: String
    public var category: String
    public var retireAtMeters: Double?

    public init(name: String, category: String, retireAtMeters: Double? = nil) {
        self.name = name
        self.category = category
        self.retireAtMeters = retireAtMeters
    }
}

/// What `gear.changed` sets; nil members stay as they are (`.some(nil)` clears the retirement distance).
public struct GearChanges: Sendable, Equatable {
    public var name: String?
    public var retireAtMeters: Double??
    public var retired: Bool?
    public var removed: Bool?

    public init(name: String? = nil, retireAtMeters: Double?? = nil, retired: Bool? = nil, removed: Bool? = nil) {
        self.name = name
        self.retireAtMeters = retireAtMeters
        self.retired = retired
        self.removed = removed
    }

    public var isEmpty: Bool { name == nil && retireAtMeters == nil && retired == nil && removed == nil }
}

/// Every piece of gear ever added, and the default of each category.
public struct GearBook: Sendable, Equatable {
    /// The stream of `gear.defaulted` events.
    public static let defaultsStream = "gear:defaults"

    /// In the order added (`items[n - 1].number == n`), removed ones included.
    public private(set) var items: [Gear] = []
    private var positions: [String: Int] = [:]
    /// The gear new activities of a category get: category → gear id.
    public private(set) var defaults: [String: String] = [:]

    public init() {}

    public init(items: [Gear], defaults: [String: String]) {
        for item in items { insert(item) }
        self.defaults = defaults
    }

    /// Gear by its stream id, removed gear included.
    public subscript(id: String) -> Gear? { positions[id].map { items[$0] } }

    /// The gear that is not removed, in the order added.
    public var live: [Gear] { items.filter { !$0.removed } }

    /// The live gear whose name matches `name` (compared as `GearLimits.key`); the first added when
    /// two replicas each added the same name.
    public func named(_ name: String) -> Gear? {
        let key = GearLimits.key(name)
        return items.first { !$0.removed && GearLimits.key($0.name) == key }
    }

    /// The gear new activities of `category` get: its default, when that is live and not retired.
    public func defaultGear(for category: String) -> Gear? {
        guard let id = defaults[category], let gear = self[id], !gear.removed, !gear.retired, gear.category == category else { return nil }
        return gear
    }

    mutating func insert(_ gear: Gear) {
        guard positions[gear.id] == nil else { return }
        positions[gear.id] = items.count
        items.append(gear)
    }

    mutating func update(id: String, _ body: (inout Gear) -> Void) {
        guard let index = positions[id] else { return }
        body(&items[index])
    }

    mutating func setDefault(_ category: String, _ gear: String?) {
        defaults[category] = gear
    }
}

/// The limits of gear, shared by every door (`EventRules`, the decider, snapshots).
public enum GearLimits {
    /// Longest name, in code points after NFC (`Validation.length`).
    public static let maxNameLength = 60
    /// At most this many pieces of gear (removed ones not counted).
    public static let maxItems = 1_000
    /// A retirement distance: from 1 km to 100,000 km.
    public static let retireAt = 1_000.0...100_000_000.0

    /// The form names are compared in: NFC, lower case, spaces collapsed; any script.
    public static func key(_ name: String) -> String {
        TextForm.normalized(name.lowercased()).split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Why a name breaks the limits, or nil.
    public static func nameProblem(_ name: String) -> String? {
        let trimmed = name.trimming(.whitespacesAndNewlines)
        if trimmed.isEmpty || trimmed != name { return "a gear name is empty or not trimmed" }
        if Validation.length(TextForm.normalized(name)) > maxNameLength { return "a gear name is longer than \(maxNameLength) characters" }
        if name.unicodeScalars.contains(where: Validation.isControl) { return "a gear name contains control characters" }
        return nil
    }

    /// Why a retirement distance breaks the limits, or nil.
    public static func retireProblem(_ meters: Double?) -> String? {
        guard let meters else { return nil }
        return meters.isFinite && retireAt.contains(meters) ? nil : "a gear's retirement distance is not between 1 km and 100,000 km"
    }
}

/// Distance, time and activities done with one piece of gear.
public struct GearUsage: Sendable, Equatable {
    public var activities = 0
    public var durationSeconds = 0
    public var distanceMeters = 0.0
    /// The date of the latest activity, ms since the epoch.
    public var lastUsed: Int64?

    public init() {}

    /// Usage per gear id over the records that are not deleted.
    /// - Complexity: O(records)
    public static func of(_ model: ReadModel) -> [String: GearUsage] {
        var usage: [String: GearUsage] = [:]
        for index in 0..<model.records.count {
            let record = model.records[index]
            guard let gear = record.gear, !record.deleted else { continue }
            var one = usage[gear] ?? GearUsage()
            one.activities += 1
            one.durationSeconds += record.durationSeconds
            one.distanceMeters += record.distanceMeters ?? 0
            one.lastUsed = max(one.lastUsed ?? record.date, record.date)
            usage[gear] = one
        }
        return usage
    }

    /// True when a retirement distance is set and reached.
    public func worn(_ gear: Gear) -> Bool {
        guard let limit = gear.retireAtMeters else { return false }
        return distanceMeters >= limit
    }
}
