import TallyDomain

/// One project in the tree of `tally projects`: its counts include its sub-projects.
public struct ProjectNode: Sendable, Equatable {
    /// The full dotted name (`home.garden`).
    public var project: String
    /// 0 for a top-level project.
    public var depth: Int
    public var open: Int
    public var done: Int

    public init(project: String, depth: Int, open: Int, done: Int) {
        self.project = project
        self.depth = depth
        self.open = open
        self.done = done
    }

    /// The share of done todos, 0 to 1; nil when the project holds none.
    public var shareDone: Double? {
        open + done == 0 ? nil : Double(done) / Double(open + done)
    }
}

/// The projects of the live todos as a tree, parents before children, names in order.
public enum ProjectTree {
    /// The tree and the counts of todos without a project. Deleted todos are left out, and so are
    /// the todos `selection` does not hold.
    /// - Complexity: O(n · d) in the todos n and the project depth d, plus sorting the projects.
    public static func run(on model: ReadModel, selection: TodoSelection = .all) -> (nodes: [ProjectNode], unfiled: (open: Int, done: Int)) {
        var counts: [String: (open: Int, done: Int)] = [:]
        var unfiled = (open: 0, done: 0)
        for index in 0..<model.todos.count {
            let row = model.todoSummary(at: index)
            if row.deleted { continue }
            let todo = model.todo(at: index)
            if !selection.isEverything, !selection.contains(todo) { continue }
            guard let project = todo.project else {
                if row.completed { unfiled.done += 1 } else { unfiled.open += 1 }
                continue
            }
            var path = ""
            for segment in project.split(separator: ".") {
                path = path.isEmpty ? String(segment) : path + "." + segment
                var count = counts[path] ?? (0, 0)
                if row.completed { count.done += 1 } else { count.open += 1 }
                counts[path] = count
            }
        }
        // Sorting segment by segment keeps a parent right before its children (`home`, `home.garden`, `home-x`).
        let names = counts.keys.sorted { $0.split(separator: ".").lexicographicallyPrecedes($1.split(separator: ".")) }
        let nodes = names.map { name in
            ProjectNode(project: name, depth: name.split(separator: ".").count - 1, open: counts[name]!.open, done: counts[name]!.done)
        }
        return (nodes, unfiled)
    }
}
