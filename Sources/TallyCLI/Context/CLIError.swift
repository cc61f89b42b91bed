import TallyEngine
import TallyDomain
import TallyEssentials
import TallyArguments
import TallyInterchange

/// The exit codes (the manual's EXIT STATUS, `ManualText.exitStatus`), in one place.
enum ExitCode: Int32 {
    case success = 0
    case failure = 1
    /// `verify --anchor`: the log ends below the anchor.
    case anchorTruncated = 3
    /// `verify --anchor`: the log no longer holds the anchored history.
    case anchorRewritten = 4
    case usage = 64
    case invalidData = 65
    case noInput = 66
    case ioError = 74
    case busy = 75
    /// Ended by Ctrl-C (128 + SIGINT, as a shell reports it).
    case interrupted = 130
}

/// Failures that belong to the command line itself.
enum CLIError: Error {
    /// `TALLY_NOW` is set but is not an ISO-8601 instant.
    case invalidNow(String)
    /// An option value that is not the right kind of value.
    case invalidOptionValue(option: String, value: String, expected: String)
    /// An input file could not be opened.
    case cannotOpenInput(path: String, reason: String)
    /// Output could not be written.
    case cannotWriteOutput(path: String, reason: String)
}

/// A failure ready to print: its exit code, a stable machine code for `--json`, and the message.
struct Failure {
    var exit: ExitCode
    var code: String
    var message: String
    /// Extra lines after the message (candidates of an ambiguous REF, ...).
    var details: [String] = []
    /// For usage errors: the command whose help to point at.
    var usagePath: [String]? = nil
}

/// The one place that maps errors to exit codes and messages.
enum FailureMapper {
    static func failure(for error: Error, catalog: Catalog) -> Failure {
        switch error {
        case let error as UsageError:
            return Failure(exit: .usage, code: "usage", message: UsageMessages.text(error.kind, catalog: catalog), usagePath: error.commandPath)
        case let error as DomainError:
            return domain(error, catalog: catalog)
        case let error as EventLogError:
            return log(error, catalog: catalog)
        case let error as ReplayError:
            return Failure(exit: .ioError, code: "corrupt", message: catalog.text(.errorUndecodableEvent, [
                "seq": String(error.seq), "type": error.type, "reason": error.reason,
            ]))
        case let error as CLIError:
            return cli(error, catalog: catalog)
        case let error as RemoteError:
            return SyncMessages.failure(error, catalog: catalog)
        case let error as AuditFailure:
            return error.failure(catalog: catalog)
        case let error as ReportError:
            return error.failure(catalog: catalog)
        case let error as TimeTravel.NotYet:
            return TimeTravel.failure(error, catalog: catalog)
        case let error as LineTooLong:
            return Failure(exit: .invalidData, code: "invalid_data", message: catalog.text(.errorLineTooLong, [
                "line": String(error.line), "size": ByteSize.format(Int64(error.limit)), "file": String(ActivityLimits.maxFileBytes >> 20),
            ]))
        case let error as Interruption.Interrupted:
            return Failure(exit: .interrupted, code: "interrupted", message: catalog.text(error.message))
        case let error as ImportFormatError where error.otherFormat != nil:
            return Failure(exit: .invalidData, code: "invalid_data", message: catalog.text(.errorJSONNotTodoTxt, ["path": error.path ?? "-"]))
        case let error as ImportFormatError:
            return Failure(exit: .invalidData, code: "invalid_data", message: catalog.text(.errorMalformedImport, [
                "location": (error.path.map { $0 + ", " } ?? "") + ForeignImport.label(error.location, catalog), "reason": error.reason,
            ]))
        default:
            // Words when the error has them; never a dump of its fields.
            let words = ErrorWords.text(error)
            let reason = words == ErrorWords.unknown ? catalog.text(.errorNoWords) : words
            return Failure(exit: .ioError, code: "io", message: catalog.text(.errorUnexpected, ["reason": reason]))
        }
    }

    private static func domain(_ error: DomainError, catalog: Catalog) -> Failure {
        switch error {
        case .invalid(.filter(let filterError, let expression)):
            return Failure(exit: .invalidData, code: "invalid_filter",
                           message: FilterExpressionText.message(filterError, expression: expression, catalog: catalog),
                           details: FilterExpressionText.pointer(filterError, expression: expression))
        case .invalid(let input):
            return Failure(exit: .invalidData, code: "invalid_data", message: InvalidInputMessages.text(input, catalog: catalog))
        case .unknownReference(let kind, let ref):
            return Failure(exit: .failure, code: "not_found", message: catalog.text(kind == .todo ? .errorUnknownTodo : .errorUnknownRecord, ["ref": ref]))
        case .ambiguousReference(let kind, let ref, let candidates):
            return Failure(
                exit: .failure, code: "ambiguous",
                message: catalog.text(kind == .todo ? .errorAmbiguousTodo : .errorAmbiguousRecord, ["ref": ref, "count": String(candidates.count)]),
                details: candidates.map { catalog.text(.errorAmbiguousCandidate, ["number": String($0.number), "id": $0.id, "label": $0.label]) }
            )
        case .itemDeleted(let kind, let number):
            return Failure(exit: .failure, code: "deleted", message: catalog.text(kind == .todo ? .errorTodoDeleted : .errorRecordDeleted, ["number": String(number)]))
        case .gear(let refusal):
            return GearMessages.failure(refusal, catalog: catalog)
        case .noGoal(let key):
            return Failure(exit: .failure, code: "goal_not_found", message: catalog.text(.errorNoGoal, ["goal": GoalText.key(key, catalog)]))
        }
    }

    private static func log(_ error: EventLogError, catalog: Catalog) -> Failure {
        switch error {
        case .conflict(let stream, let version):
            return Failure(exit: .failure, code: "conflict", message: catalog.text(.errorConflict, ["stream": stream, "version": String(version)]))
        case .duplicateEventID(let id):
            return Failure(exit: .failure, code: "conflict", message: catalog.text(.errorDuplicateEvent, ["id": id]))
        case .busy:
            return Failure(exit: .busy, code: "busy", message: catalog.text(.errorBusy))
        case .newerSchema(let found, let known):
            return Failure(exit: .ioError, code: "newer_schema", message: catalog.text(.errorNewerSchema, ["found": String(found), "known": String(known)]))
        case .corrupt(let reason):
            return Failure(exit: .ioError, code: "corrupt", message: catalog.text(.errorCorrupt, ["reason": reason]))
        case .full:
            return Failure(exit: .ioError, code: "disk_full", message: catalog.text(.errorDiskFull))
        case .io(let reason):
            return Failure(exit: .ioError, code: "io", message: catalog.text(.errorIO, ["reason": reason]))
        case .unavailable(let failure):
            let (code, id): (String, MessageID) = switch failure.kind {
            case .refused: ("cannot_connect", .errorServerRefused)
            case .authentication: ("authentication", .errorServerAuthentication)
            case .unknownDatabase: ("unknown_database", .errorServerUnknownDatabase)
            case .lost: ("connection_lost", .errorServerLost)
            case .clientMissing: ("client_library_missing", .errorClientLibraryMissing)
            case .invalidAddress: ("invalid_address", .errorServerInvalidAddress)
            }
            return Failure(exit: failure.kind == .invalidAddress ? .usage : .ioError, code: code, message: catalog.text(id, ["server": failure.server, "detail": failure.detail]))
        case .permissionDenied(let detail):
            return Failure(exit: .ioError, code: "permission_denied", message: catalog.text(.errorPermissionDenied, ["detail": detail]))
        case .foreignSchema(let detail):
            return Failure(exit: .ioError, code: "not_a_tally_database", message: catalog.text(.errorForeignSchema, ["detail": detail]))
        case .unreadableRedaction(let seq, let reason):
            return Failure(exit: .invalidData, code: "unreadable_redaction", message: catalog.text(.errorUnreadableRedaction, ["seq": String(seq), "reason": reason]))
        case .deferred(let inner, _):
            return log(inner, catalog: catalog)
        }
    }

    private static func cli(_ error: CLIError, catalog: Catalog) -> Failure {
        switch error {
        case .invalidNow(let value):
            return Failure(exit: .invalidData, code: "invalid_data", message: catalog.text(.errorInvalidNow, ["value": value]))
        case .invalidOptionValue(let option, let value, let expected):
            return Failure(exit: .invalidData, code: "invalid_data", message: catalog.text(.errorInvalidOptionValue, [
                "option": option, "value": value, "expected": expected,
            ]))
        case .cannotOpenInput(let path, let reason):
            return Failure(exit: .noInput, code: "no_input", message: catalog.text(.errorCannotOpenInput, ["path": path, "reason": reason]))
        case .cannotWriteOutput(let path, let reason):
            return Failure(exit: .ioError, code: "io", message: catalog.text(.errorCannotWriteOutput, ["path": path, "reason": reason]))
        }
    }
}

/// Messages for the domain's invalid-input cases.
enum InvalidInputMessages {
    static func text(_ input: InvalidInput, catalog: Catalog) -> String {
        switch input {
        case .value(let error):
            return ValueReasonMessages.message(error, catalog: catalog)
        case .emptyTitle: return catalog.text(.errorEmptyTitle)
        case .titleTooLong(let max): return catalog.text(.errorTitleTooLong, ["max": String(max)])
        case .controlCharacters(let field): return catalog.text(.errorControlCharacters, ["field": field])
        case .invalidTag(let tag): return catalog.text(.errorInvalidTag, ["tag": tag])
        case .tooManyTags(let max): return catalog.text(.errorTooManyTags, ["max": String(max)])
        case .invalidPriority(let value): return catalog.text(.errorInvalidPriority, ["value": value])
        case .noteTooLong(let max): return catalog.text(.errorNoteTooLong, ["max": String(max)])
        case .invalidLimit(let value): return catalog.text(.errorInvalidLimit, ["value": value])
        case .emptyName: return catalog.text(.errorEmptyName)
        case .textTooLong(let field, let max): return catalog.text(.errorNameTooLong, ["field": field, "max": String(max)])
        case .invalidCategory(let value): return catalog.text(.errorInvalidCategory, ["value": value])
        case .durationOutOfRange: return catalog.text(.errorDurationOutOfRange)
        case .distanceOutOfRange: return catalog.text(.errorDistanceOutOfRange)
        case .dateTooFarInFuture(let value): return catalog.text(.errorDateTooFarInFuture, ["value": value])
        case .outsideLimits(let reason): return catalog.text(.errorOutsideLimits, ["reason": reason])
        case .recurrenceWithoutDue: return catalog.text(.errorRecurrenceWithoutDue)
        case .recurrenceOptionWithoutRecur(let option): return catalog.text(.errorRecurrenceOptionWithoutRecur, ["option": option])
        case .untilBeforeDue(let until, let due): return catalog.text(.errorUntilBeforeDue, ["until": until, "due": due])
        case .invalidRecurFrom(let value): return catalog.text(.errorInvalidRecurFrom, ["value": value])
        case .notRecurring(let number): return catalog.text(.errorNotRecurring, ["number": String(number)])
        case .trainingValue(let option, let value, let low, let high):
            return catalog.text(.errorTrainingValue, ["option": option, "value": value, "low": String(low), "high": String(high)])
        case .invalidZones(let value): return catalog.text(.errorInvalidZones, ["value": value])
        case .athleteConflict(let reason): return catalog.text(.errorAthleteConflict, ["reason": reason])
        case .athleteNothingToSet: return catalog.text(.errorAthleteNothingToSet)
        case .waitsForItself(let number): return catalog.text(.errorWaitsForItself, ["number": String(number)])
        case .dependencyCycle(let numbers): return catalog.text(.errorDependencyCycle, ["cycle": numbers.map(String.init).joined(separator: " → ")])
        case .tooManyDependencies(let max): return catalog.text(.errorTooManyDependencies, ["max": String(max)])
        case .invalidProject(let project): return catalog.text(.errorInvalidProject, ["project": project])
        case .filter(let error, let expression): return FilterExpressionText.message(error, expression: expression, catalog: catalog)
        // Annotations and time on a todo
        case .emptyAnnotation: return catalog.text(.errorEmptyAnnotation)
        case .noSuchAnnotation(let number, let index, let count):
            return catalog.text(.errorNoSuchAnnotation, ["number": String(number), "index": index, "count": String(count)])
        case .badIntervalTime(let value): return catalog.text(.errorBadIntervalTime, ["value": value])
        case .startCompleted(let number): return catalog.text(.errorStartCompleted, ["number": String(number)])
        case .unknownContext(let name): return catalog.text(.errorUnknownContext, ["name": name])
        case .invalidContextName(let name): return catalog.text(.errorInvalidContextName, ["name": name])
        case .tooManyContexts(let max): return catalog.text(.errorTooManyContexts, ["max": String(max)])
        }
    }
}

/// Messages for argument-parsing errors.
enum UsageMessages {
    static func text(_ kind: UsageError.Kind, catalog: Catalog) -> String {
        switch kind {
        case .unknownCommand(let name, let suggestion):
            return catalog.text(.usageUnknownCommand, ["name": name]) + suggest(suggestion, catalog)
        case .unknownOption(let name, let suggestion):
            return catalog.text(.usageUnknownOption, ["name": name]) + suggest(suggestion, catalog)
        case .missingValue(let option):
            return catalog.text(.usageMissingValue, ["option": option])
        case .missingArgument(let name):
            return catalog.text(.usageMissingArgument, ["name": name])
        case .unexpectedArgument(let value):
            return catalog.text(.usageUnexpectedArgument, ["value": value])
        case .repeatedOption(let option):
            return catalog.text(.usageRepeatedOption, ["option": option])
        case .invalidValue(let option, let value, let allowed):
            return catalog.text(.usageInvalidValue, ["option": option, "value": value, "allowed": allowed.joined(separator: ", ")])
        case .conflictingOptions(let first, let second):
            return catalog.text(.usageConflictingOptions, ["first": first, "second": second])
        case .custom(let text):
            return text
        }
    }

    private static func suggest(_ suggestion: String?, _ catalog: Catalog) -> String {
        guard let suggestion else { return "" }
        return " " + catalog.text(.usageDidYouMean, ["suggestion": suggestion])
    }
}

/// Exit 1 and words for a gear refusal.
enum GearMessages {
    static func failure(_ refusal: GearRefusal, catalog: Catalog) -> Failure {
        switch refusal {
        case .unknown(let name):
            return Failure(exit: .failure, code: "gear_not_found", message: catalog.text(.errorUnknownGear, ["name": TerminalText.escaped(name)]))
        case .duplicate(let name):
            return Failure(exit: .failure, code: "gear_exists", message: catalog.text(.errorGearExists, ["name": TerminalText.escaped(name)]))
        case .otherCategory(let gear, let gearCategory, let category):
            return Failure(exit: .failure, code: "gear_category", message: catalog.text(.errorGearCategory, [
                "name": TerminalText.escaped(gear), "gearCategory": gearCategory, "category": category,
            ]))
        case .retiredDefault(let name):
            return Failure(exit: .failure, code: "gear_retired", message: catalog.text(.errorGearRetiredDefault, ["name": TerminalText.escaped(name)]))
        case .tooMany(let max):
            return Failure(exit: .failure, code: "gear_limit", message: catalog.text(.errorTooMuchGear, ["max": String(max)]))
        }
    }
}
