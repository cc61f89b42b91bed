/// Typo distance between words, used for "Did you mean …?" suggestions.
public enum EditDistance {
    /// Levenshtein distance in which swapping two adjacent characters also counts as one edit
    /// (optimal string alignment), so `lsit` is 1 away from `list`.
    public static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var twoBack = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    best = min(best, twoBack[j - 2] + 1)
                }
                current[j] = best
            }
            (twoBack, previous, current) = (previous, current, twoBack)
        }
        return previous[b.count]
    }

    /// The candidate closest to `input`: distance ≤ 2 first, else the shortest one `input` begins.
    ///
    /// The distance must also stay below the longer word's length, so `ls` never suggests `rm`
    /// (everything replaced). Ties go to the earlier candidate.
    public static func suggestion(for input: String, among candidates: [String]) -> String? {
        guard !input.isEmpty else { return nil }
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let d = distance(input, candidate)
            guard d <= 2, d < max(input.count, candidate.count) else { continue }
            if best == nil || d < best!.distance { best = (candidate, d) }
        }
        if let best { return best.candidate }
        return candidates
            .filter { $0.count > input.count && $0.hasPrefix(input) }
            .min { $0.count < $1.count }
    }
}
