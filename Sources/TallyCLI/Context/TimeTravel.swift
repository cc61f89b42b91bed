import TallyEngine
import TallyDomain

/// `--as-of` that points where the log has nothing: past its end, or before an item existed.
enum TimeTravel {
    /// A REF that names an item of the present that did not exist yet at the `--as-of` bound.
    struct NotYet: Error {
        var kind: ItemKind
        var ref: String
        var asOf: String
    }

    /// Refuses a log position past the end of the log (exit 65), instead of silently showing the present.
    static func check(_ bound: Replayer.Bound?, against log: EventLog) throws {
        guard case .position(let seq)? = bound else { return }
        let last = try log.head().seq
        guard seq > last else { return }
        throw DomainError.invalid(.value(ValueError(kind: .when, input: "@\(seq)", key: .logPositionPastEnd, arguments: ["last": "@\(last)"])))
    }

    /// Resolves a REF in the state at the bound; a REF that only the present knows becomes `NotYet`.
    static func resolve<Item>(
        _ ref: String, kind: ItemKind, asOf raw: String?, in state: ReadModel, log: any EventStore, context: CLIContext,
        _ find: (String, ReadModel) throws(DomainError) -> Item
    ) throws -> Item {
        do {
            return try find(ref, state)
        } catch .unknownReference(let unknownKind, let unknownRef) {
            guard let raw, (try? find(ref, try context.readState(log))) != nil else {
                throw DomainError.unknownReference(unknownKind, unknownRef)
            }
            throw NotYet(kind: kind, ref: ref, asOf: raw)
        }
    }

    static func failure(_ error: NotYet, catalog: Catalog) -> Failure {
        Failure(exit: .failure, code: "not_found", message: catalog.text(error.kind == .todo ? .errorTodoNotYet : .errorRecordNotYet, [
            "ref": error.ref, "asOf": error.asOf,
        ]))
    }
}
