/// File paths as text, the way `NSString`'s path methods treat them (which FoundationEssentials does not offer):
/// `/` separates components, repeated slashes count as one, and a trailing slash is ignored.
public enum PathText {
    /// `/a/b/c` → `/a/b`, `a` → ``, `/a` → `/`, `/` → `/`.
    public static func deletingLastComponent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(collapsed(path))
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        return String(trimmed[..<slash])
    }

    /// `/a/b/c` → `c`, `/a/b/` → `b`, `/` → `/`, `` → ``.
    public static func lastComponent(_ path: String) -> String {
        let trimmed = withoutTrailingSlashes(collapsed(path))
        if trimmed == "/" { return "/" }
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `a` + `b` → `a/b`, `a/` + `b` → `a/b`, `` + `b` → `b`.
    public static func appending(_ path: String, _ component: String) -> String {
        if path.isEmpty { return withoutTrailingSlashes(collapsed(component)) }
        if component.isEmpty { return withoutTrailingSlashes(collapsed(path)) }
        return withoutTrailingSlashes(collapsed(path + "/" + component))
    }

    /// Without `.` components, with `..` applied to the components before it (`/a/./b/../c` → `/a/c`), and
    /// `~` or `~/...` expanded with `home`. Symbolic links are not resolved.
    public static func standardized(_ path: String, home: String?) -> String {
        var path = path
        if let home, path == "~" || path.hasPrefix("~/") { path = home + path.dropFirst() }
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..":
                if let last = parts.last, last != ".." { parts.removeLast() } else if !absolute { parts.append(part) }
            default: parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty && !path.isEmpty ? "." : joined
    }

    private static func collapsed(_ path: String) -> String {
        guard path.contains("//") else { return path }
        var result = ""
        var previousSlash = false
        for character in path {
            if character == "/" && previousSlash { continue }
            previousSlash = character == "/"
            result.append(character)
        }
        return result
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var result = path
        while result.count > 1, result.hasSuffix("/") { result.removeLast() }
        return result
    }
}
