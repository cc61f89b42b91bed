import TallyEssentials

/// `gear add` as typed.
public struct GearInput: Sendable, Equatable {
    public var name: String
    public var category: String
    /// `--retire-at DISTANCE`.
    public var retireAt: String?
    /// `--default`: new activities of the category get it.
    public var makeDefault: Bool

    public init(name: String, category: String, retireAt: String? = nil, makeDefault: Bool = false) {
        self.name = name
        self.category = category
        self.retireAt = retireAt
        self.makeDefault = makeDefault
    }
}

/// `gear edit` and `gear retire` as typed; nil and false change nothing.
public struct GearEditInput: Sendable, Equatable {
    public var name: String?
    /// A DISTANCE, or `none` to take the retirement distance off.
    public var retireAt: String?
    public var makeDefault: Bool
    /// true: retire it; false: back in use.
    public var retired: Bool?

    public init(name: String? = nil, retireAt: String? = nil, makeDefault: Bool = false, retired: Bool? = nil) {
        self.name = name
        self.retireAt = retireAt
        self.makeDefault = makeDefault
        self.retired = retired
    }

    public var isEmpty: Bool { name == nil && retireAt == nil && !makeDefault && retired == nil }
}

/// The gear half of the decider, and the gear an activity is logged or edited with.
extension Decider {
    static func decideAddGear(_ input: GearInput, state: ReadModel, context: DecisionContext, into builder: inout DecisionBuilder) throws(DomainError) {
        let name = try gearName(input.name)
        let category = try Validation.category(input.category)
        let retireAt = try input.retireAt.map { raw throws(DomainError) in try retireDistance(raw) }
        if state.gear.named(name) != nil { throw .gear(.duplicate(name)) }
        guard state.gear.live.count < GearLimits.maxItems else { throw .gear(.tooMany(max: GearLimits.maxItems)) }
        let id = context.makeID()
        builder.append(.gearAdded(GearFields(name: name, category: category, retireAtMeters: retireAt)), to: id)
        if input.makeDefault {
            builder.append(.gearDefaulted(category: category, gear: id), to: GearBook.defaultsStream)
        }
    }

    static func decideEditGear(_ ref: String, _ input: GearEditInput, state: ReadModel, into builder: inout DecisionBuilder) throws(DomainError) {
        let gear = try Self.gear(ref, in: state)
        var changes = GearChanges()
        if let raw = input.name {
            let name = try gearName(raw)
            if let other = state.gear.named(name), other.id != gear.id { throw .gear(.duplicate(name)) }
            if name != gear.name { changes.name = name }
        }
        if let raw = input.retireAt {
            let meters = raw.trimming(.whitespaces).lowercased() == "none" ? nil : try retireDistance(raw)
            if meters != gear.retireAtMeters { changes.retireAtMeters = .some(meters) }
        }
        if let retired = input.retired, retired != gear.retired { changes.retired = retired }
        let retiredAfter = changes.retired ?? gear.retired
        if input.makeDefault, retiredAfter { throw .gear(.retiredDefault(gear.name)) }
        let isDefault = state.gear.defaults[gear.category] == gear.id
        if !changes.isEmpty { builder.append(.gearChanged(changes), to: gear.id) }
        if input.makeDefault, !isDefault {
            builder.append(.gearDefaulted(category: gear.category, gear: gear.id), to: GearBook.defaultsStream)
        } else if retiredAfter, isDefault {
            builder.append(.gearDefaulted(category: gear.category, gear: nil), to: GearBook.defaultsStream)
        }
        if builder.decision.events.isEmpty { builder.notices.append(.gearUnchanged(name: gear.name)) }
    }

    /// The live gear named `raw` (any case, NFC); refused when there is none.
    public static func gear(_ raw: String, in state: ReadModel) throws(DomainError) -> Gear {
        guard raw.utf8.count <= 4 * GearLimits.maxNameLength + 64, let gear = state.gear.named(raw.trimming(.whitespacesAndNewlines)) else {
            throw .gear(.unknown(String(raw.prefix(GearLimits.maxNameLength))))
        }
        return gear
    }

    /// The gear a new activity of `category` is logged with: `--gear` (of that category), none with
    /// `--no-gear`, else the category's default.
    static func gearForNew(_ raw: String?, noGear: Bool, category: String, state: ReadModel) throws(DomainError) -> String? {
        if noGear { return nil }
        guard let raw else { return state.gear.defaultGear(for: category)?.id }
        let gear = try gear(raw, in: state)
        guard gear.category == category else { throw .gear(.otherCategory(gear: gear.name, gearCategory: gear.category, category: category)) }
        return gear.id
    }

    /// The gear change of `record edit`: `--gear`, `--no-gear`, or none; a new category the kept
    /// gear is not for is refused (name gear of the new category, or `--no-gear`).
    static func gearChange(_ input: RecordEditInput, record: Record, category: String, state: ReadModel) throws(DomainError) -> String?? {
        if input.noGear { return record.gear == nil ? nil : .some(nil) }
        if let raw = input.gear {
            let gear = try gear(raw, in: state)
            guard gear.category == category else { throw .gear(.otherCategory(gear: gear.name, gearCategory: gear.category, category: category)) }
            return gear.id == record.gear ? nil : .some(gear.id)
        }
        if let id = record.gear, let gear = state.gear[id], !gear.removed, gear.category != category {
            throw .gear(.otherCategory(gear: gear.name, gearCategory: gear.category, category: category))
        }
        return nil
    }

    /// A gear name: trimmed, NFC, 1-60 code points (`Validation.length`) of any script, no control characters.
    private static func gearName(_ raw: String) throws(DomainError) -> String {
        let name = TextForm.normalized(raw.trimming(.whitespacesAndNewlines))
        guard !name.isEmpty else { throw .invalid(.emptyName) }
        guard Validation.length(name) <= GearLimits.maxNameLength else { throw .invalid(.textTooLong(field: "gear name", max: GearLimits.maxNameLength)) }
        guard !name.unicodeScalars.contains(where: Validation.isControl) else { throw .invalid(.controlCharacters(field: "gear name")) }
        return name
    }

    /// `--retire-at`: a DISTANCE from 1 km to 100,000 km.
    private static func retireDistance(_ raw: String) throws(DomainError) -> Double {
        guard raw.utf8.count <= 40 else { throw .invalid(.outsideLimits(reason: GearLimits.retireProblem(.infinity)!)) }
        let meters: Double
        do {
            meters = try Distance.parse(raw)
        } catch {
            throw .invalid(.value(error))
        }
        if let reason = GearLimits.retireProblem(meters) { throw .invalid(.outsideLimits(reason: reason)) }
        return Distance.toMillimetre(meters)
    }
}
