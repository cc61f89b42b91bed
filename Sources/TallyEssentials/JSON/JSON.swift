/// A JSON value (RFC 8259).
///
/// Equality matches the canonical serialization: two values are equal exactly
/// when their `.canonical` texts are equal (for finite numbers). Consequently
/// strings and object keys compare by their Unicode scalars (not by Swift's
/// canonical equivalence, so "é" precomposed differs from "e" + U+0301),
/// objects ignore key order, and `.int(n)` equals `.double(x)` when `x` is
/// integral, `|x| < 2^53` and `Int64(x) == n` (canonical writes such a double
/// as the integer `n`).
public enum JSON: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object(JSONObject)
}

extension JSON: Equatable {
    /// Canonical-form equality; see the type's documentation.
    public static func == (lhs: JSON, rhs: JSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null):
            return true
        case let (.bool(a), .bool(b)):
            return a == b
        case let (.int(a), .int(b)):
            return a == b
        case let (.double(a), .double(b)):
            return a == b
        case let (.int(a), .double(b)), let (.double(b), .int(a)):
            guard let exact = b.canonicalInteger else { return false }
            return exact == a
        case let (.string(a), .string(b)):
            return utf8Equal(a, b)
        case let (.array(a), .array(b)):
            return a == b
        case let (.object(a), .object(b)):
            return a == b
        default:
            return false
        }
    }
}

extension Double {
    /// The integer canonical JSON writes for this value, or nil when it is written
    /// with `description` (non-integral, non-finite, or `|x| >= 2^53`).
    ///
    /// Uses conversion round trips rather than `rounded()`, which would need libm.
    public var canonicalInteger: Int64? {
        guard magnitude < 9_007_199_254_740_992 else { return nil }
        let integer = Int64(self)
        return Double(integer) == self ? integer : nil
    }

    /// The exactly equal Int64, or nil; like `Int64(exactly:)` but without libm.
    public var exactInt64: Int64? {
        guard self >= -9_223_372_036_854_775_808.0, self < 9_223_372_036_854_775_808.0 else { return nil }
        let integer = Int64(self)
        return Double(integer) == self ? integer : nil
    }
}

/// Byte-wise (equivalently, scalar-wise) string equality.
///
/// Compares the contiguous UTF-8 buffers directly: the generic `elementsEqual` over
/// `UTF8View` measured at 11% of a full replay (payload key lookups).
@inline(__always)
public func utf8Equal(_ a: String, _ b: String) -> Bool {
    var a = a
    var b = b
    return a.withUTF8 { left in
        b.withUTF8 { right in
            guard left.count == right.count else { return false }
            for index in 0..<left.count where left[index] != right[index] { return false }
            return true
        }
    }
}

extension JSON {
    /// The string, or nil unless `.string`.
    public var stringValue: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    /// The integer; also accepts a `.double` whose value is an exact Int64.
    public var intValue: Int64? {
        switch self {
        case let .int(value): return value
        case let .double(value): return value.exactInt64
        default: return nil
        }
    }

    /// The number as a Double; an `.int` beyond 2^53 is rounded to the nearest Double.
    public var doubleValue: Double? {
        switch self {
        case let .double(value): return value
        case let .int(value): return Double(value)
        default: return nil
        }
    }

    /// The boolean, or nil unless `.bool`.
    public var boolValue: Bool? {
        if case let .bool(value) = self { return value }
        return nil
    }

    /// The elements, or nil unless `.array`.
    public var arrayValue: [JSON]? {
        if case let .array(value) = self { return value }
        return nil
    }

    /// The object, or nil unless `.object`.
    public var objectValue: JSONObject? {
        if case let .object(value) = self { return value }
        return nil
    }

    /// True for `.null` only.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension JSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral, ExpressibleByFloatLiteral
{
    /// `.string(value)`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `.int(value)`.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// `.bool(value)`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `.double(value)`.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// `.array(elements)`.
    public init(arrayLiteral elements: JSON...) { self = .array(elements) }
    /// `.object`; a repeated key keeps its first position and its last value.
    public init(dictionaryLiteral elements: (String, JSON)...) { self = .object(JSONObject(elements)) }
    /// `.null`.
    public init(nilLiteral: ()) { self = .null }
}

/// Ordered object: keeps insertion order for output; equality ignores order.
///
/// Keys are distinct by their UTF-8 bytes. Lookup is a linear scan while the
/// object is small (the common case for event payloads) and a hash index once `set`
/// grows it past `indexThreshold` members, so building an object by `set` is O(n)
/// overall. An object built from pairs (`init(_:)`, a literal) is not indexed until
/// a `set` adds to it: those are written out far more often than searched.
/// Invariant: `index` is nil or maps every key to its position in `members`.
public struct JSONObject: Sendable, ExpressibleByDictionaryLiteral {
    /// A key and its value; a struct rather than a tuple so the array gets specialised value witnesses.
    public struct Member: Sendable {
        var key: String
        var value: JSON
    }

    private(set) var members: [Member]
    private var index: [JSONKey: Int]?

    /// Objects with more members than this keep a hash index.
    public static let indexThreshold = 12

    /// An empty object.
    public init() {
        members = []
        index = nil
    }

    /// An object with `pairs` in order; a repeated key keeps its first position and its last value.
    ///
    /// Built without a hash index: objects built from pairs are mostly written out, not searched
    /// (`--json list` builds one per todo), and a lookup falls back to a scan; the first `set` that
    /// grows the object indexes it.
    public init(_ pairs: [(String, JSON)]) {
        self.init()
        members.reserveCapacity(pairs.count)
        for (key, value) in pairs {
            if let position = members.firstIndex(where: { utf8Equal($0.key, key) }) {
                members[position].value = value
            } else {
                members.append(Member(key: key, value: value))
            }
        }
    }

    /// Same as `init(_:)`.
    public init(dictionaryLiteral elements: (String, JSON)...) {
        self.init(elements)
    }

    /// Keys in insertion order.
    public var keys: [String] { members.map(\.key) }

    /// Number of members.
    public var count: Int { members.count }

    /// Members in insertion order.
    public var pairs: [(key: String, value: JSON)] { members.map { ($0.key, $0.value) } }

    /// The value for `key`; assigning nil removes the member, assigning a value to
    /// an existing key replaces it in place.
    public subscript(key: String) -> JSON? {
        get {
            guard let position = position(of: key) else { return nil }
            return members[position].value
        }
        set {
            if let newValue {
                set(key, newValue)
            } else if let position = position(of: key) {
                members.remove(at: position)
                rebuildIndex()
            }
        }
    }

    public mutating func reserveCapacity(_ capacity: Int) {
        members.reserveCapacity(capacity)
    }

    /// Replaces the value of the member at `position`.
    public mutating func replaceValue(at position: Int, with value: consuming JSON) {
        members[position].value = value
    }

    /// Appends a member whose key the caller has checked is new; only valid while unindexed.
    public mutating func appendNew(_ key: consuming String, _ value: consuming JSON) {
        members.append(Member(key: key, value: value))
    }

    /// Inserts or replaces; O(1) amortised once indexed, O(count) before.
    public mutating func set(_ key: consuming String, _ value: consuming JSON) {
        if let position = position(of: key) {
            members[position].value = value
            return
        }
        members.append(Member(key: key, value: value))
        if index != nil {
            index![JSONKey(members[members.count - 1].key)] = members.count - 1
        } else if members.count > Self.indexThreshold {
            rebuildIndex()
        }
    }

    private func position(of key: String) -> Int? {
        if let index { return index[JSONKey(key)] }
        for position in members.indices where utf8Equal(members[position].key, key) {
            return position
        }
        return nil
    }

    private mutating func rebuildIndex() {
        guard members.count > Self.indexThreshold else {
            index = nil
            return
        }
        var rebuilt = [JSONKey: Int](minimumCapacity: members.count)
        for (position, member) in members.enumerated() { rebuilt[JSONKey(member.key)] = position }
        index = rebuilt
    }
}

extension JSONObject: Equatable {
    /// Same keys (by bytes) with equal values, in any order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for member in lhs.members {
            guard let other = rhs[member.key], other == member.value else { return false }
        }
        return true
    }
}

/// A dictionary key that hashes and compares a String by its UTF-8 bytes.
public struct JSONKey: Hashable, Sendable {
    public let string: String

    public init(_ string: String) { self.string = string }

    public static func == (lhs: JSONKey, rhs: JSONKey) -> Bool { utf8Equal(lhs.string, rhs.string) }

    public func hash(into hasher: inout Hasher) {
        var string = string
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(string.utf8.count)
    }
}

/// Why and where `JSON.parse` rejected its input.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Byte offset into the UTF-8 input where the problem was detected.
    public let offset: Int
    /// Short English reason, e.g. "unexpected character 'x'" or "unterminated string".
    public let reason: String

    /// An error at `offset` for `reason`.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// "reason at byte offset".
    public var description: String { "\(reason) at byte \(offset)" }
}
