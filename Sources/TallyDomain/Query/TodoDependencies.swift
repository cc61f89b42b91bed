import TallyEssentials
/// Which todos wait for which (`--after`), read from the few todos that wait for others.
///
/// A todo is **blocked** while it is pending and one of the todos it waits for is pending
/// (neither completed nor deleted); a pending todo that a blocked one waits for is **blocking**.
/// Built from `ItemCounts.linked`, so a store where nobody uses dependencies pays nothing.
public struct TodoDependencies: Sendable {
    /// Most todos one todo may wait for.
    public static let maxAfter = 50

    let model: ReadModel
    /// For each todo that waits for others (any state), the ids it waits for.
    public private(set) var waitsFor: [String: [String]] = [:]
    /// For each todo, the ids of the todos (any state) that wait for it, in creation order.
    public private(set) var waitedOnBy: [String: [String]] = [:]

    public init(_ model: ReadModel) {
        self.model = model
        for position in model.todos.counts.linked.sorted() {
            let todo = model.todo(at: position)
            guard !todo.after.isEmpty else { continue }
            waitsFor[todo.id] = todo.after
            for blocker in todo.after { waitedOnBy[blocker, default: []].append(todo.id) }
        }
    }

    /// True when no todo waits for another.
    public var isEmpty: Bool { waitsFor.isEmpty }

    /// The todo with this id, in any state.
    public func todo(_ id: String) -> Todo? { model.todo(id: id) }

    private func pending(_ id: String) -> Todo? {
        guard let todo = model.todo(id: id), !todo.completed, !todo.deleted else { return nil }
        return todo
    }

    /// The pending todos `todo` waits for.
    public func blockers(of todo: Todo) -> [Todo] {
        (waitsFor[todo.id] ?? []).compactMap(pending)
    }

    /// True when `todo` is pending and waits for a pending todo.
    public func isBlocked(_ todo: Todo) -> Bool {
        !todo.completed && !todo.deleted && (waitsFor[todo.id] ?? []).contains { pending($0) != nil }
    }

    /// The pending todos that wait for `todo` while it is pending.
    public func blocking(_ todo: Todo) -> [Todo] {
        guard !todo.completed, !todo.deleted else { return [] }
        return (waitedOnBy[todo.id] ?? []).compactMap(pending)
    }

    /// The cycle that letting `id` wait for `after` would close, as ids from `id` back to `id`; nil
    /// when there is none. Every edge counts, whatever the state of its todos.
    /// - Complexity: O(edges), iterative (no recursion however long the chains).
    public func cycle(from id: String, after: [String]) -> [String]? {
        cycle(from: id, after: after, overrides: [:])
    }

    /// Like `cycle(from:after:)`, with the lists of `overrides` in place of the todos' own (edges a
    /// command changes before `id`'s).
    public func cycle(from id: String, after: [String], overrides: [String: [String]]) -> [String]? {
        var edges = waitsFor.merging(overrides) { $1 }
        edges[id] = after
        // Depth-first from `id`, keeping the path as a stack of (node, next edge to try).
        var stack: [(String, Int)] = [(id, 0)]
        var done: Set<String> = []
        var onPath: Set<String> = [id]
        while let (node, next) = stack.last {
            let targets = edges[node] ?? []
            guard next < targets.count else {
                stack.removeLast()
                onPath.remove(node)
                done.insert(node)
                continue
            }
            stack[stack.count - 1].1 += 1
            let target = targets[next]
            if target == id { return stack.map(\.0) + [id] }
            if done.contains(target) || onPath.contains(target) { continue }
            onPath.insert(target)
            stack.append((target, 0))
        }
        return nil
    }
}
