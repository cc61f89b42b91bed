
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns a REF (a number, or a UUID prefix of at least 4 hex digits) into an item.
public enum ReferenceResolver {
    public static let minimumPrefix = 4

    /// Resolves a REF among todos, deleted ones included.
    ///
    /// A REF of digits names a number first; when no item has that number and it
    /// is long enough, it is tried as an id prefix.
    /// - Complexity: O(1) for numbers, O(n) for prefixes.
    public static func todo(_ ref: String, in model: ReadModel) throws(DomainError) -> Todo {
        let index = try resolve(ref, kind: .todo, count: model.todos.count, id: { model.todos[$0].id }, label: { model.todos[$0].title })
        return model.todos[index]
    }

    /// Resolves a REF to an index in a list whose element i has number i + 1.
    static func resolve(
        _ raw: String, kind: ItemKind, count: Int, id: (Int) -> String, label: (Int) -> String
    ) throws(DomainError) -> Int {
        let ref = raw.trimming(.whitespaces).lowercased()
        let isDigits = !ref.isEmpty && ref.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        if isDigits, ref.utf8.count <= 9, let number = Int(ref), number >= 1, number <= count {
            return number - 1
        }
        let hexDigits = ref.utf8.filter { $0 != 0x2D }
        let isPrefix = hexDigits.count >= minimumPrefix && ref.utf8.count <= 36
            && ref.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) || $0 == 0x2D }
        guard isPrefix else { throw .unknownReference(kind, raw) }
        var matches: [Int] = []
        for index in 0..<count where id(index).hasPrefix(ref) {
            matches.append(index)
        }
        switch matches.count {
        case 0:
            throw .unknownReference(kind, raw)
        case 1:
            return matches[0]
        default:
            throw .ambiguousReference(kind, raw, candidates: matches.map {
                RefCandidate(number: $0 + 1, id: id($0), label: label($0))
            })
        }
    }
}

extension ReferenceResolver {
    /// Resolves a REF among records, deleted ones included.
    public static func record(_ ref: String, in model: ReadModel) throws(DomainError) -> Record {
        let index = try resolve(ref, kind: .record, count: model.records.count, id: { model.records[$0].id }, label: { model.records[$0].name })
        return model.records[index]
    }
}
