import TallyEssentials
import TallyArguments

/// Lines of prose beside tables (a footer such as `3 active, 1 completed`, a title), wrapped between words.
enum WordWrap {
    /// `text` as lines no wider than `width` (a single word wider than that keeps a line of its own).
    static func wrapped(_ text: String, width: Int?) -> String {
        guard let width, TextWidth.of(text) > width else { return text }
        return HelpRenderer.wrap(text, width: width, continuationIndent: 0).joined(separator: "\n")
    }
}
