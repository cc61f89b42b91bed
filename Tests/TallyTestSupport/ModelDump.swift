/// A canonical text of any value: every stored property, dictionaries and sets sorted, so equal
/// values give equal text in every process (Swift's own descriptions follow hash order).
public enum ModelDump {
    /// The canonical text of `value`.
    public static func text(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            guard let child = mirror.children.first else { return "nil" }
            return text(child.value)
        case .dictionary:
            let entries = mirror.children.map { entry -> String in
                let pair = Array(Mirror(reflecting: entry.value).children)
                return text(pair[0].value) + ": " + text(pair[1].value)
            }
            return "[" + entries.sorted().joined(separator: ", ") + "]"
        case .set:
            return "Set[" + mirror.children.map { text($0.value) }.sorted().joined(separator: ", ") + "]"
        case .collection:
            return "[" + mirror.children.map { text($0.value) }.joined(separator: ", ") + "]"
        case .enum:
            guard let child = mirror.children.first else { return "\(mirror.subjectType).\(value)" }
            return "\(mirror.subjectType).\(child.label ?? "")(\(text(child.value)))"
        case .struct, .class, .tuple:
            let fields = mirror.children.map { "\($0.label ?? "_"): \(text($0.value))" }
            return "\(mirror.subjectType)(" + fields.joined(separator: ", ") + ")"
        default:
            return String(reflecting: value)
        }
    }
}
