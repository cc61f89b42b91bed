
/// Why undo or redo could not run. Nothing is appended when one is thrown.
public enum HistoryError: Error, Sendable, Equatable {
    /// Every command in the log is already undone (or the log is empty).
    case nothingToUndo
    /// On a shared log undo reverts only `actor`'s own commands, and none of the log's `commands` is theirs.
    case noOwnCommands(actor: String, commands: Int)
    /// No undo since the last change: redo only re-applies commands undone since then.
    case nothingToRedo
    /// The command to undo erased values (`tally redact`): they exist nowhere any more, so nothing can bring them back.
    case redactionIrreversible(command: String)
    /// The item holds no value of the field to erase (none ever set, or all erased before).
    case nothingToRedact(field: String, alreadyErased: Int)
    /// The field cannot be erased from this kind of item.
    case notRedactable(field: String, record: Bool)
    /// Some of the values were written before commitments: erasing them would break their events' links.
    case uncommittedValues(field: String, events: [Int64])
}
