import TallyEngine
import TallyDomain

/// Failures of the audit commands (undo, redo, verify, import), with their exit codes and messages.
protocol AuditFailure: Error {
    func failure(catalog: Catalog) -> Failure
}

extension HistoryError: AuditFailure {
    func failure(catalog: Catalog) -> Failure {
        switch self {
        case .nothingToUndo: Failure(exit: .failure, code: "nothing_to_undo", message: catalog.text(.errorNothingToUndo))
        case .noOwnCommands(let actor, let commands):
            Failure(exit: .failure, code: "nothing_to_undo", message: catalog.plural(.errorNothingOfYoursToUndo, count: commands, ["actor": actor]))
        case .nothingToRedo: Failure(exit: .failure, code: "nothing_to_redo", message: catalog.text(.errorNothingToRedo))
        case .redactionIrreversible(let command):
            Failure(exit: .failure, code: "redaction_irreversible", message: catalog.text(.errorRedactIrreversible, ["command": String(command.prefix(8))]))
        case .nothingToRedact, .notRedactable, .uncommittedValues:
            RedactFailure(error: self, item: "").failure(catalog: catalog)
        }
    }
}

extension ImportError: AuditFailure {
    func failure(catalog: Catalog) -> Failure {
        switch self {
        case .malformed(let line, let reason):
            return Failure(exit: .invalidData, code: "invalid_data", message: catalog.text(.errorImportMalformed, ["line": String(line), "reason": reason]))
        case .conflict(let line, .differentContent(let id)):
            return Failure(exit: .failure, code: "conflict", message: catalog.text(.errorImportDifferent, ["line": String(line), "id": id]))
        case .conflict(let line, .versionTaken(let stream, let version)):
            return Failure(exit: .failure, code: "conflict", message: catalog.text(.errorImportVersionTaken, [
                "line": String(line), "stream": stream, "version": String(version),
            ]))
        case .conflict(let line, .versionGap(let stream, let expected, let found)):
            return Failure(exit: .failure, code: "conflict", message: catalog.text(.errorImportVersionGap, [
                "line": String(line), "stream": stream, "expected": String(expected), "found": String(found),
            ]))
        }
    }
}

/// `verify` found problems; the report itself is already on stdout.
struct VerificationFailed: AuditFailure {
    var problems: Int
    var firstSeq: Int64

    func failure(catalog: Catalog) -> Failure {
        Failure(exit: .failure, code: "verify_failed", message: catalog.plural(.errorVerifyFailed, count: problems, ["seq": String(firstSeq)]))
    }
}
