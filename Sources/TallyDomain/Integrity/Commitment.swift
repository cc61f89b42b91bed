import TallyEssentials

/// Salted commitments: what lets a value be erased from an event while the event's chain link
/// stays exactly what it was.
///
/// An event written by this version stores, for each erasable value in its payload (a todo's or a
/// series' `title`, `note`, `tags`, `project`; a record's `name`, `place`, `note`; an
/// annotation's `text`), 16 random bytes under `$salts`:
///
///     {"$salts":{"note":"9f…","title":"03…"},"note":"router pw hunter2","tags":[],"title":"Router",…}
///
/// The chain link does not hash that payload but its *committed form*: `$salts` left out and each
/// salted value replaced by `{"redacted":C}` with `C = hex(SHA-256("tally-commit-1:" ++ salt ++
/// ":" ++ canonical(value)))`. Redaction replaces the value by that very object and deletes its
/// salt, so the committed form, and with it every link, stays byte for byte the same, while the
/// value and the only means of testing a guess against `C` are gone. A payload without `$salts`
/// (every event written before commitments) is hashed verbatim, exactly as before: old hashes and
/// anchors stay valid, and its values cannot be erased without breaking its link.
public enum Commitment {
    /// The payload key that holds the salts.
    public static let saltsKey = "$salts"
    /// The key of the object that stands where an erased value was.
    public static let markerKey = "redacted"
    /// What readers see in place of an erased text.
    public static let placeholder = "[redacted]"
    /// What readers see in place of erased tags or project (a valid tag and project name).
    public static let placeholderName = "redacted"

    /// Bytes of randomness per salt.
    public static let saltBytes = 16

    /// The erasable keys of a payload of `type`; empty for types that hold none.
    public static func erasableKeys(of type: String) -> [String] {
        switch type {
        case "todo.created", "todo.edited": ["note", "project", "tags", "title"]
        case "series.started", "series.changed": ["note", "tags", "title"]
        case "record.logged", "record.edited": ["name", "note", "place"]
        case "todo.annotated": ["text"]
        default: []
        }
    }

    /// The field of `redact` that erases `key` of events of `type`: the key itself, but
    /// `annotations` for the text of an annotation.
    public static func field(ofKey key: String, type: String) -> String {
        type == "todo.annotated" && key == "text" ? annotationsField : key
    }

    /// The erasable key of events of `type` that `field` erases, nil when they hold none.
    public static func key(ofField field: String, type: String) -> String? {
        erasableKeys(of: type).first { Self.field(ofKey: $0, type: type) == field }
    }

    /// The field of `redact` that erases the text of every annotation of a todo.
    public static let annotationsField = "annotations"

    /// The commitment to `value` under `salt`: lowercase hex SHA-256.
    public static func commit(salt: String, value: JSON) -> String {
        var hasher = SHA256()
        hasher.update("tally-commit-1:")
        hasher.update(salt)
        hasher.update(":")
        hasher.update(value.serialized(.canonical))
        return SHA256.hex(hasher.finalize())
    }

    /// `payload` with a fresh salt for each erasable value it holds (null values hold nothing).
    /// `salt` returns `saltBytes` random bytes as lowercase hex.
    public static func salted(_ payload: JSONObject, type: String, salt: () -> String) -> JSONObject {
        var salts = JSONObject()
        for key in erasableKeys(of: type) {
            guard let value = payload[key], !value.isNull else { continue }
            salts.set(key, .string(salt()))
        }
        guard salts.count > 0 else { return payload }
        var result = payload
        result.set(saltsKey, .object(salts))
        return result
    }

    /// True when the stored payload text carries commitments (canonical JSON puts `$salts` first).
    @inline(__always)
    public static func isCommitted(_ data: String) -> Bool {
        data.utf8.starts(with: prefix)
    }

    private static let prefix = Array("{\"$salts\":".utf8)

    /// The bytes the chain link hashes for the payload `data`: nil when that is `data` itself
    /// (no commitments). A committed payload that does not parse is hashed verbatim (and so fails).
    public static func committedForm(_ data: String) -> String? {
        guard isCommitted(data), case .object(let object)? = try? JSON.parse(data) else { return nil }
        return committedForm(object).serialized(.canonical)
    }

    /// The committed form of a payload object (see the type's description).
    public static func committedForm(_ object: JSONObject) -> JSON {
        guard let salts = object[saltsKey]?.objectValue else { return .object(object) }
        var result = JSONObject()
        result.reserveCapacity(object.count)
        for (key, value) in object.pairs where key != saltsKey {
            if let salt = salts[key]?.stringValue {
                result.set(key, marker(commit(salt: salt, value: value)))
            } else {
                result.set(key, value)
            }
        }
        return .object(result)
    }

    /// True when two stored payloads are the same, or the same but for values one of them has
    /// erased: their committed forms (what the chain hashes) are equal.
    public static func samePayload(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        guard isCommitted(a), isCommitted(b), let left = committedForm(a) else { return false }
        return left == committedForm(b)
    }

    /// The object that stands for an erased value.
    public static func marker(_ commitment: String) -> JSON {
        .object([markerKey: .string(commitment)])
    }

    /// True when `value` is an erasure marker.
    public static func isMarker(_ value: JSON?) -> Bool {
        guard let object = value?.objectValue, object.count == 1, object[markerKey]?.stringValue != nil else { return false }
        return true
    }

    /// The payload as the decoders read it: without `$salts`, each erased value replaced by the
    /// placeholder of its kind. Payloads without commitments are returned as they are.
    public static func readable(_ object: JSONObject) -> JSONObject {
        guard object[saltsKey] != nil else { return object }
        var pairs: [(String, JSON)] = []
        pairs.reserveCapacity(object.count)
        for (key, value) in object.pairs where key != saltsKey {
            pairs.append((key, isMarker(value) ? placeholderValue(for: key) : value))
        }
        return JSONObject(pairs)
    }

    /// The payload without `$salts`, erased values left as their markers: what views print.
    public static func withoutSalts(_ object: JSONObject) -> JSONObject {
        guard object[saltsKey] != nil else { return object }
        return JSONObject(object.pairs.filter { $0.key != saltsKey }.map { ($0.key, $0.value) })
    }

    /// What a reader sees where the value of `key` was erased.
    static func placeholderValue(for key: String) -> JSON {
        switch key {
        case "tags": .array([.string(placeholderName)])
        case "project": .string(placeholderName)
        default: .string(placeholder)
        }
    }

    /// What erasing `key` from one stored payload comes to.
    public enum Erasure: Sendable, Equatable {
        /// The new payload text, whose committed form is the old one's, byte for byte.
        case erased(data: String)
        /// The payload holds no value for the key (absent or null).
        case absent
        /// The value was erased before.
        case alreadyErased
        /// The payload holds a value with no commitment (written before commitments): erasing it
        /// would break the event's link.
        case uncommitted
    }

    /// Erases the value of `key` from the payload text `data`.
    public static func erase(_ key: String, from data: String) -> Erasure {
        guard case .object(let object)? = try? JSON.parse(data) else { return .absent }
        guard let value = object[key], !value.isNull else { return .absent }
        if isMarker(value), object[saltsKey] != nil { return .alreadyErased }
        guard var salts = object[saltsKey]?.objectValue, let salt = salts[key]?.stringValue else { return .uncommitted }
        var remaining = JSONObject()
        for (name, saltValue) in salts.pairs where name != key { remaining.set(name, saltValue) }
        salts = remaining
        var result = JSONObject()
        for (name, member) in object.pairs {
            if name == saltsKey {
                result.set(name, .object(salts))
            } else if name == key {
                result.set(name, marker(commit(salt: salt, value: value)))
            } else {
                result.set(name, member)
            }
        }
        let erased = JSON.object(result).serialized(.canonical)
        guard committedForm(erased) == committedForm(data) else { return .uncommitted }
        return .erased(data: erased)
    }
}
