import TallyDomain

/// A small, strict XML reader for GPX and TCX: elements, attributes, text, CDATA and the
/// predefined and numeric character references. Comments, processing instructions and a
/// DOCTYPE without an internal subset are skipped; entity declarations are refused (no
/// expansion, so no "billion laughs"). Names are reported without their namespace prefix.
///
/// Well-formedness is checked where a track reader needs it: tags nest and match, one root,
/// nothing left open at the end, nesting at most `maxDepth` deep.
public struct XMLReader {
    /// One step through the document.
    public enum Event {
        case start(name: String, attributes: [String: String])
        case end(name: String)
        /// The text between tags, references resolved; whitespace-only runs are not reported.
        case text(String)
    }

    /// Why the bytes are not a document this reader accepts: the byte offset and an English reason.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var offset: Int
        public var reason: String

        public var description: String { "XML at byte \(offset): \(reason)" }
    }

    /// Reads `bytes` from start to end, calling `handler` for each event in document order.
    /// - Complexity: O(n).
    public static func parse(_ bytes: [UInt8], maxDepth: Int = ActivityLimits.maxXMLDepth, _ handler: (Event) throws -> Void) throws {
        var reader = XMLReader(bytes: bytes, maxDepth: maxDepth)
        try reader.run(handler)
    }

    private let bytes: [UInt8]
    private let maxDepth: Int
    private var position = 0
    private var open: [String] = []
    private var sawRoot = false

    private init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    private func fail(_ reason: String) -> Failure { Failure(offset: position, reason: reason) }

    private mutating func run(_ handler: (Event) throws -> Void) throws {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        var text: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            if byte != 0x3C {
                if open.isEmpty {
                    guard isSpace(byte) else { throw fail("text outside the root element") }
                    position += 1
                    continue
                }
                try readText(into: &text)
                continue
            }
            if !text.isEmpty {
                if text.contains(where: { !isSpace($0) }) { try handler(.text(try string(text))) }
                text.removeAll(keepingCapacity: true)
            }
            if starts("<!--") {
                try skip(past: "-->")
            } else if starts("<![CDATA[") {
                guard !open.isEmpty else { throw fail("CDATA outside the root element") }
                position += 9
                let begin = position
                try skip(past: "]]>")
                text.append(contentsOf: bytes[begin..<(position - 3)])
            } else if starts("<?") {
                try skip(past: "?>")
            } else if starts("<!DOCTYPE") {
                let begin = position
                try skip(past: ">")
                if bytes[begin..<position].contains(0x5B) { throw fail("a DOCTYPE with declarations is not accepted") }
            } else if starts("<!") {
                throw fail("markup declarations are not accepted")
            } else if starts("</") {
                position += 2
                let name = try readName()
                skipSpace()
                guard position < bytes.count, bytes[position] == 0x3E else { throw fail("'>' expected after </\(name)") }
                position += 1
                guard let last = open.popLast(), last == name else { throw fail("</\(name)> does not close the open element") }
                try handler(.end(name: localName(name)))
            } else {
                try readStart(handler)
            }
        }
        if !text.isEmpty, !open.isEmpty { throw fail("the document ends inside <\(open.last!)>") }
        guard open.isEmpty else { throw fail("the document ends inside <\(open.last!)>") }
        guard sawRoot else { throw fail("no root element") }
    }

    private mutating func readStart(_ handler: (Event) throws -> Void) throws {
        position += 1
        if open.isEmpty, sawRoot { throw fail("a second root element") }
        let name = try readName()
        var attributes: [String: String] = [:]
        while true {
            let hadSpace = skipSpace()
            guard position < bytes.count else { throw fail("the document ends inside <\(name)>") }
            let byte = bytes[position]
            if byte == 0x3E || (byte == 0x2F && position + 1 < bytes.count && bytes[position + 1] == 0x3E) {
                let empty = byte == 0x2F
                position += empty ? 2 : 1
                guard open.count < maxDepth else { throw fail("elements nest deeper than \(maxDepth) levels") }
                sawRoot = true
                try handler(.start(name: localName(name), attributes: attributes))
                if empty {
                    try handler(.end(name: localName(name)))
                } else {
                    open.append(name)
                }
                return
            }
            guard hadSpace else { throw fail("space expected in <\(name)>") }
            let key = try readName()
            skipSpace()
            guard position < bytes.count, bytes[position] == 0x3D else { throw fail("'=' expected after attribute \(key)") }
            position += 1
            skipSpace()
            guard position < bytes.count, bytes[position] == 0x22 || bytes[position] == 0x27 else { throw fail("a quoted value expected for \(key)") }
            let quote = bytes[position]
            position += 1
            let begin = position
            while position < bytes.count, bytes[position] != quote {
                if bytes[position] == 0x3C { throw fail("'<' in the value of \(key)") }
                position += 1
            }
            guard position < bytes.count else { throw fail("the document ends inside an attribute value") }
            let value = try string(try resolve(Array(bytes[begin..<position])))
            position += 1
            attributes[localName(key)] = value
        }
    }

    private mutating func readText(into text: inout [UInt8]) throws {
        let begin = position
        while position < bytes.count, bytes[position] != 0x3C { position += 1 }
        let slice = bytes[begin..<position]
        if slice.contains(0x26) {
            text.append(contentsOf: try resolve(Array(slice)))
        } else {
            text.append(contentsOf: slice)
        }
    }

    /// Replaces `&lt;` `&gt;` `&amp;` `&quot;` `&apos;` `&#N;` `&#xH;`; any other reference is an error.
    private func resolve(_ raw: [UInt8]) throws -> [UInt8] {
        guard raw.contains(0x26) else { return raw }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = 0
        while index < raw.count {
            guard raw[index] == 0x26 else {
                out.append(raw[index])
                index += 1
                continue
            }
            guard let semicolon = raw[index...].prefix(12).firstIndex(of: 0x3B) else { throw fail("an unterminated '&' reference") }
            let name = String(decoding: raw[(index + 1)..<semicolon], as: UTF8.self)
            switch name {
            case "lt": out.append(0x3C)
            case "gt": out.append(0x3E)
            case "amp": out.append(0x26)
            case "quot": out.append(0x22)
            case "apos": out.append(0x27)
            default:
                var value: UInt32?
                if name.hasPrefix("#x") { value = UInt32(name.dropFirst(2), radix: 16) } else if name.hasPrefix("#") { value = UInt32(name.dropFirst(), radix: 10) }
                guard let code = value, code != 0, let scalar = Unicode.Scalar(code) else { throw fail("unknown reference &\(name);") }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            index = semicolon + 1
        }
        return out
    }

    private mutating func readName() throws -> String {
        let begin = position
        while position < bytes.count {
            let byte = bytes[position]
            if isSpace(byte) || byte == 0x3E || byte == 0x2F || byte == 0x3D || byte == 0x3C || byte == 0x22 || byte == 0x27 { break }
            position += 1
        }
        guard position > begin, position - begin <= 256 else { throw fail("a name expected") }
        return try string(Array(bytes[begin..<position]))
    }

    @discardableResult
    private mutating func skipSpace() -> Bool {
        let begin = position
        while position < bytes.count, isSpace(bytes[position]) { position += 1 }
        return position > begin
    }

    private mutating func skip(past terminator: StaticString) throws {
        let end = Array(UnsafeBufferPointer(start: terminator.utf8Start, count: terminator.utf8CodeUnitCount))
        var index = position
        while index + end.count <= bytes.count {
            if bytes[index] == end[0], bytes[index..<(index + end.count)].elementsEqual(end) {
                position = index + end.count
                return
            }
            index += 1
        }
        throw fail("the document ends before '\(terminator)'")
    }

    private func starts(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        let start = prefix.utf8Start
        for offset in 0..<count where bytes[position + offset] != start[offset] { return false }
        return true
    }

    private func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    /// The text of `raw`; ASCII (the common case in track files) needs no validation pass.
    private func string(_ raw: [UInt8]) throws -> String {
        let text = String(decoding: raw, as: UTF8.self)
        if raw.allSatisfy({ $0 < 0x80 }) { return text }
        guard text.utf8.count == raw.count, text.utf8.elementsEqual(raw) else { throw fail("not valid UTF-8") }
        return text
    }

    private func localName(_ name: String) -> String {
        guard let colon = name.lastIndex(of: ":") else { return name }
        return String(name[name.index(after: colon)...])
    }
}
