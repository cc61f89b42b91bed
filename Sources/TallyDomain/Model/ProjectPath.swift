import TallyEssentials
/// A project: names like tags (letters and digits of any script, `_`, `-`), joined by dots into a
/// hierarchy (`home.garden`). Lowercased and in Unicode NFC, like tags.
public enum ProjectPath {
    /// Most levels a project may have.
    public static let maxDepth = 8
    /// Longest project, in code points (`Validation.length`), dots included.
    public static let maxLength = 100

    /// The project in its stored form, or nil when it breaks the rules.
    public static func normalized(_ raw: String) -> String? {
        let path = TextForm.normalized(raw.lowercased())
        guard !path.isEmpty, Validation.length(path) <= maxLength else { return nil }
        let segments = path.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count <= maxDepth else { return nil }
        for segment in segments {
            guard !segment.isEmpty, Validation.length(segment) <= Validation.maxTagLength,
                  segment.unicodeScalars.allSatisfy(Validation.isTagScalar) else { return nil }
        }
        return path
    }

    /// True when `project` is `ancestor` or lies below it (`home.garden` is within `home`, `homework` is not).
    public static func isWithin(_ project: String, _ ancestor: String) -> Bool {
        guard project.utf8.starts(with: ancestor.utf8) else { return false }
        let rest = project.utf8.dropFirst(ancestor.utf8.count)
        return rest.isEmpty || rest.first == UInt8(ascii: ".")
    }
}
