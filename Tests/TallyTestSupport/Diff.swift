/// A readable difference between two values: one line per leaf that differs, with its path.
public enum Diff {
    /// Lines such as `todos[2].title: "Buy milk" → "Buy oat milk"`; empty when the dumps are equal.
    public static func lines<T>(_ expected: T, _ actual: T) -> [String] {
        var result: [String] = []
        compare(Mirror(reflecting: expected), expected, Mirror(reflecting: actual), actual, path: "", into: &result)
        return result
    }

    /// The difference as one message for a failing expectation.
    public static func describe<T>(_ expected: T, _ actual: T) -> String {
        let lines = lines(expected, actual)
        return lines.isEmpty ? "(no visible difference)" : "expected → actual:\n  " + lines.joined(separator: "\n  ")
    }

    private static func compare(_ left: Mirror, _ leftValue: Any, _ right: Mirror, _ rightValue: Any, path: String, into result: inout [String]) {
        let leftChildren = Array(left.children)
        let rightChildren = Array(right.children)
        if leftChildren.isEmpty || rightChildren.isEmpty || left.displayStyle == .enum || right.displayStyle == .enum {
            let l = String(reflecting: leftValue)
            let r = String(reflecting: rightValue)
            if l != r { result.append("\(path.isEmpty ? "value" : path): \(l) → \(r)") }
            return
        }
        if left.displayStyle == .dictionary || left.displayStyle == .set {
            let l = String(reflecting: leftValue)
            let r = String(reflecting: rightValue)
            if l != r { result.append("\(path): \(l) → \(r)") }
            return
        }
        if left.displayStyle == .collection || left.displayStyle == .tuple {
            if leftChildren.count != rightChildren.count {
                result.append("\(path).count: \(leftChildren.count) → \(rightChildren.count)")
            }
        }
        for index in 0..<max(leftChildren.count, rightChildren.count) {
            let label = left.displayStyle == .collection
                ? "[\(index)]"
                : "." + (leftChildren[safe: index]?.label ?? rightChildren[safe: index]?.label ?? "\(index)")
            guard let l = leftChildren[safe: index], let r = rightChildren[safe: index] else {
                let present = leftChildren[safe: index].map { "\(String(reflecting: $0.value)) → (missing)" }
                    ?? "(missing) → \(String(reflecting: rightChildren[index].value))"
                result.append("\(path)\(label): \(present)")
                continue
            }
            compare(Mirror(reflecting: l.value), l.value, Mirror(reflecting: r.value), r.value, path: path + label, into: &result)
        }
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? {
        index >= 0 && index < count ? self[index] : nil
    }
}
