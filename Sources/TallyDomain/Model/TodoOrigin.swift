import TallyEssentials

/// Where an imported todo came from: the other tool, its id for the item there, and when it was created there.
///
/// Stored in the `origin` key of `todo.created` (schema 3). Todos added in tally have none.
public struct TodoOrigin: Sendable, Equatable {
    /// The tools an import reads.
    public enum Tool: String, Sendable, CaseIterable {
        case taskwarrior, todotxt
    }

    public var tool: Tool
    /// The Taskwarrior `uuid`, or the todo.txt line number (as text) the item was read from.
    public var id: String
    /// When the item was created in the other tool (ms since the epoch); nil when the file does not say.
    public var createdAt: Int64?

    public init(tool: Tool, id: String, createdAt: Int64? = nil) {
        self.tool = tool
        self.id = id
        self.createdAt = createdAt
    }
}

extension TodoOrigin {
    /// `{"tool": "taskwarrior", "id": "…", "createdAt": ISO-8601 or null}` as stored in `todo.created`.
    var payload: JSONObject {
        ["tool": .string(tool.rawValue), "id": .string(id), "createdAt": createdAt.map { .string(Timestamp.format($0)) } ?? .null]
    }

    /// Reads what `payload` wrote; nil when a key is missing or mistyped.
    init?(payload object: JSONObject) {
        guard let tool = object["tool"]?.stringValue.flatMap(Tool.init(rawValue:)),
              let id = object["id"]?.stringValue, !id.isEmpty, id.count <= 200,
              let created = object["createdAt"] else { return nil }
        if created.isNull {
            self.init(tool: tool, id: id)
        } else {
            guard let text = created.stringValue, let instant = Timestamp.parse(text) ?? LegacyValues.instant(text) else { return nil }
            self.init(tool: tool, id: id, createdAt: instant)
        }
    }
}
