import TallyDomain

/// How the CLI names a todo another one points at (the todos one waits for): by its number, as
/// `--after 2` takes it, from the first of `models` that holds the todo; by its id's first eight
/// characters only when none does. `--json` keeps the ids.
struct TodoNumbers {
    /// Where the todos are looked up, in order: the state now, then an earlier one.
    var models: [ReadModel]

    init(_ models: ReadModel...) {
        self.models = models
    }

    /// `2`, or `50daef38` for a todo no model here holds.
    func text(_ id: String) -> String {
        for model in models {
            if let todo = model.todo(id: id) { return String(todo.number) }
        }
        return String(id.prefix(8))
    }

    /// `2 5`; `-` for none.
    func list(_ ids: [String]) -> String {
        ids.isEmpty ? "-" : ids.map(text).joined(separator: " ")
    }
}
