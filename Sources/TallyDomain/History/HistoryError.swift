
/// Why undo or redo could not run. Nothing is appended when one is thrown.
public enum HistoryError: Error, Sendable, Equatable {
    /// Every command in the log is already undone (or the log is empty).
    case nothingToUndo
    /// On a shared log undo reverts only `actor`'s own commands, and none of the log's `commands` is theirs.
    case noOwnCommands(actor: String, commands: Int)
    /// No undo since the last change: redo only re-applies commands undone since then.
    case nothingToRedo
}
