import TallyEssentials

/// Reads the payloads of the frequent todo events straight from their UTF-8 bytes into the
/// event types, without building a JSON tree: the replay hot path.
///
/// It handles only the plain shapes the log holds in bulk (`todo.created` and `todo.edited` in
/// today's schema with string, null and string-array members, and the empty payloads of
/// `todo.completed`, `reopened`, `deleted` and `restored`) and answers nil for anything else: an
/// escape in a string, a repeated or unknown key, a value of another type, an older schema, an
/// `origin`, ill-formed UTF-8, bad JSON. The caller then runs the tree decoder
/// (`EventCatalog.decodeTree`), which stays the one definition of what a payload may be and of
/// every error message. So the scanner accepts a subset of what that decoder accepts, and for it
/// builds the same event, read as that decoder reads it (`LegacyValues.read`, a few integer
/// comparisons for a todo, made on the fields in place before they become an event: a
/// `DomainEvent` is as large as its largest case, and every copy of one is a `memcpy`).
enum PayloadScanner {
    /// The event types the scanner reads.
    enum Kind {
        case created, edited, completed, reopened, deleted, restored
    }

    static let createdSchema = EventCatalog.currentSchemas["todo.created"]
    static let editedSchema = EventCatalog.currentSchemas["todo.edited"]
    static let emptySchemas = (
        EventCatalog.currentSchemas["todo.completed"], EventCatalog.currentSchemas["todo.reopened"],
        EventCatalog.currentSchemas["todo.deleted"], EventCatalog.currentSchemas["todo.restored"]
    )

    /// The event, or nil when the tree decoder must decide.
    /// - Complexity: O(payload bytes).
    static func decode(type: String, schema: Int, utf8 data: UnsafeBufferPointer<UInt8>) -> DomainEvent? {
        guard let base = data.baseAddress, !data.isEmpty else { return nil }
        var cursor = Cursor(bytes: base, count: data.count)
        guard let event = decodeObject(type: type, schema: schema, at: &cursor, legacyRead: true), cursor.atEnd() else { return nil }
        return event
    }

    /// Reads one payload object at `cursor` and leaves the cursor after its closing brace; with
    /// `legacyRead`, the event as `LegacyValues.read` reads it, otherwise as stored.
    static func decodeObject(type: String, schema: Int, at cursor: inout Cursor, legacyRead: Bool = false) -> DomainEvent? {
        guard let kind = kind(of: type) else { return nil }
        switch kind {
        case .created:
            var members = TodoMembers()
            guard schema == createdSchema, cursor.todoMembers(into: &members), members.seen == TodoKey.all else { return nil }
            return members.created(legacyRead: legacyRead)
        case .edited:
            var members = TodoMembers()
            guard schema == editedSchema, cursor.todoMembers(into: &members) else { return nil }
            return members.edited(legacyRead: legacyRead)
        case .completed: return schema == emptySchemas.0 && cursor.emptyObject() ? .todoCompleted : nil
        case .reopened: return schema == emptySchemas.1 && cursor.emptyObject() ? .todoReopened : nil
        case .deleted: return schema == emptySchemas.2 && cursor.emptyObject() ? .todoDeleted : nil
        case .restored: return schema == emptySchemas.3 && cursor.emptyObject() ? .todoRestored : nil
        }
    }

    /// The kind a type name spells: the length picks at most two candidates, and equal small
    /// strings compare by their bits (a `switch` over every name would compare each in turn).
    static func kind(of type: String) -> Kind? {
        switch type.utf8.count {
        case 11: type == "todo.edited" ? .edited : nil
        case 12: type == "todo.created" ? .created : type == "todo.deleted" ? .deleted : nil
        case 13: type == "todo.reopened" ? .reopened : type == "todo.restored" ? .restored : nil
        case 14: type == "todo.completed" ? .completed : nil
        default: nil
        }
    }

    /// The members of a todo payload, one bit of `seen` per key.
    enum TodoKey: Int {
        case title, tags, priority, due, note, wait, series

        static let all = (1 << 7) - 1
        var bit: Int { 1 << rawValue }

        /// Position in canonical JSON, which orders keys by their bytes.
        var canonicalRank: Int {
            switch self {
            case .due: 0
            case .note: 1
            case .priority: 2
            case .series: 3
            case .tags: 4
            case .title: 5
            case .wait: 6
            }
        }
    }

    /// The todo members read; a nullable member is nil for null.
    struct TodoMembers {
        var seen = 0
        var title = ""
        var tags: [String] = []
        var priority: String?
        var due: String?
        var note: String?
        var wait: String?
        var series: String?

        func has(_ key: TodoKey) -> Bool { seen & key.bit != 0 }

        /// The `todo.created` the tree decoder builds, or nil when a value is one it would refuse.
        func created(legacyRead: Bool) -> DomainEvent? {
            guard let priority = convert(priority, Priority.init(rawValue:)),
                  let due = convert(due, Due.init(storageText:)),
                  let wait = convert(wait, Due.init(storageText:)),
                  let series = convert(series, Self.identifier) else { return nil }
            var fields = TodoFields(title: title, tags: tags, priority: priority, due: due, note: note, wait: wait, series: series)
            if legacyRead { LegacyValues.read(&fields) }
            return .todoCreated(fields)
        }

        /// The `todo.edited` the tree decoder builds, or nil when a value is one it would refuse.
        func edited(legacyRead: Bool) -> DomainEvent? {
            var changes = TodoChanges()
            if has(.title) { changes.title = title }
            if has(.tags) { changes.tags = tags }
            if has(.priority) {
                guard let priority = convert(priority, Priority.init(rawValue:)) else { return nil }
                changes.priority = .some(priority)
            }
            if has(.due) {
                guard let due = convert(due, Due.init(storageText:)) else { return nil }
                changes.due = .some(due)
            }
            if has(.note) { changes.note = .some(note) }
            if has(.wait) {
                guard let wait = convert(wait, Due.init(storageText:)) else { return nil }
                changes.wait = .some(wait)
            }
            if has(.series) {
                guard let series = convert(series, Self.identifier) else { return nil }
                changes.series = .some(series)
            }
            if legacyRead { LegacyValues.read(&changes) }
            return .todoEdited(changes)
        }

        /// `.some(nil)` for null, `.some(value)` for a text `read` accepts, nil otherwise.
        func convert<T>(_ text: String?, _ read: (String) -> T?) -> T?? {
            guard let text else { return .some(nil) }
            return read(text).map { .some($0) }
        }

        static func identifier(_ text: String) -> String? {
            UUIDBytes.pack(text) != nil ? text : nil
        }
    }

    /// A position in the payload bytes.
    struct Cursor {
        let bytes: UnsafePointer<UInt8>
        let count: Int
        var position = 0
        /// False once the bytes read differ from canonical JSON (whitespace, keys out of order):
        /// what was read is canonical exactly when this stays true, as the scanner reads no escapes.
        var canonical = true

        @inline(__always)
        mutating func skipWhitespace() {
            while position < count {
                let byte = bytes[position]
                guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
                canonical = false
                position &+= 1
            }
        }

        /// Consumes `byte` (after whitespace) when it is next.
        @inline(__always)
        mutating func take(_ byte: UInt8) -> Bool {
            skipWhitespace()
            guard position < count, bytes[position] == byte else { return false }
            position &+= 1
            return true
        }

        private static let saltsPrefix = Array(#""$salts":{"#.utf8)

        /// Skips a leading `"$salts":{…}` member (the salts of commitments, which every reader
        /// drops, `Commitment.readable`) and answers true; false, having read nothing, when the
        /// member is not next. Its object holds plain hex strings, so the first `}` ends it: a
        /// payload that hides a `}` in it fails to parse after the skip and goes to the tree
        /// decoder. Marks what was read as not known to be canonical, so the import path checks
        /// such a payload through the tree.
        mutating func skipSalts() -> Bool {
            let prefix = Self.saltsPrefix
            guard count - position > prefix.count else { return false }
            for index in 0..<prefix.count where bytes[position + index] != prefix[index] { return false }
            var end = position + prefix.count
            while end < count, bytes[end] != 0x7D { end &+= 1 }
            guard end < count else { return false }
            position = end + 1
            canonical = false
            return true
        }

        /// True when only whitespace is left.
        mutating func atEnd() -> Bool {
            skipWhitespace()
            return position == count
        }

        /// `{}`.
        mutating func emptyObject() -> Bool {
            take(0x7B) && take(0x7D)
        }

        /// A string without escapes: the range of its bytes, and whether they are all ASCII.
        @inline(__always)
        mutating func rawString() -> (start: Int, end: Int, ascii: Bool)? {
            guard take(0x22) else { return nil }
            let start = position
            var high: UInt8 = 0
            while position < count {
                let byte = bytes[position]
                if byte == 0x22 {
                    position &+= 1
                    return (start, position &- 1, high < 0x80)
                }
                if byte == 0x5C || byte < 0x20 { return nil }
                high |= byte
                position &+= 1
            }
            return nil
        }

        /// A string value; nil when it has escapes or is not well-formed UTF-8.
        mutating func string() -> String? {
            guard let (start, end, ascii) = rawString() else { return nil }
            let raw = UnsafeBufferPointer(start: bytes + start, count: end &- start)
            let text = String(decoding: raw, as: UTF8.self)
            // Decoding repairs ill-formed sequences, so the text equals the bytes only when they were well-formed.
            return ascii || text.utf8.elementsEqual(raw) ? text : nil
        }

        /// `null` (as `.some(nil)`) or a string; nil for anything else.
        mutating func nullableString() -> String?? {
            skipWhitespace()
            guard position < count else { return nil }
            if bytes[position] == 0x6E {
                guard position &+ 4 <= count, bytes[position &+ 1] == 0x75, bytes[position &+ 2] == 0x6C, bytes[position &+ 3] == 0x6C else { return nil }
                position &+= 4
                return .some(nil)
            }
            return string().map { .some($0) }
        }

        /// An array of strings.
        mutating func strings() -> [String]? {
            guard take(0x5B) else { return nil }
            var strings: [String] = []
            if take(0x5D) { return strings }
            repeat {
                guard let element = string() else { return nil }
                strings.append(element)
            } while take(0x2C)
            return take(0x5D) ? strings : nil
        }

        /// The key whose name the bytes `start..<end` spell: every name fits in eight bytes, so
        /// the bytes are packed little-endian into one word and compared with the name's word
        /// (`"title"` is 0x65_6c74_6974; a test checks every constant against its name).
        func todoKey(_ start: Int, _ end: Int) -> TodoKey? {
            let length = end &- start
            guard length >= 3, length <= 8 else { return nil }
            var word: UInt64
            if start &+ 8 <= count {
                word = UnsafeRawPointer(bytes + start).loadUnaligned(as: UInt64.self).littleEndian
                if length < 8 { word &= (1 &<< UInt64(length &* 8)) &- 1 }
            } else {
                word = 0
                for index in 0..<length { word |= UInt64(bytes[start &+ index]) &<< UInt64(index &* 8) }
            }
            switch word {
            case 0x65_6c74_6974: return .title
            case 0x7367_6174: return .tags
            case 0x7974_6972_6f69_7270: return .priority
            case 0x65_7564: return .due
            case 0x6574_6f6e: return .note
            case 0x7469_6177: return .wait
            case 0x7365_6972_6573: return .series
            default: return nil
            }
        }

        /// Reads the value of `key` into `members`; false when it is not of the key's shape.
        mutating func member(_ key: TodoKey, into members: inout TodoMembers) -> Bool {
            switch key {
            case .title:
                guard let title = string() else { return false }
                members.title = title
            case .tags:
                guard let tags = strings() else { return false }
                members.tags = tags
            case .priority, .due, .note, .wait, .series:
                guard let text = nullableString() else { return false }
                switch key {
                case .priority: members.priority = text
                case .due: members.due = text
                case .note: members.note = text
                case .wait: members.wait = text
                default: members.series = text
                }
            }
            members.seen |= key.bit
            return true
        }

        /// A payload object of todo members, each key at most once.
        mutating func todoMembers(into members: inout TodoMembers) -> Bool {
            guard take(0x7B) else { return false }
            if take(0x7D) { return true }
            if skipSalts() {
                if take(0x7D) { return true }
                guard take(0x2C) else { return false }
            }
            var rank = -1
            repeat {
                guard let (start, end, _) = rawString(), let key = todoKey(start, end), !members.has(key),
                      take(0x3A), member(key, into: &members) else { return false }
                if key.canonicalRank < rank { canonical = false }
                rank = key.canonicalRank
            } while take(0x2C)
            return take(0x7D)
        }
    }
}
