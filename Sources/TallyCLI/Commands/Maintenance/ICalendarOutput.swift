import TallyEngine
import TallyDomain
import TallyInterchange
import TallyArguments

/// `tally export --ical [--output FILE]`: the todos with due dates (not deleted) as VTODOs.
enum ICalendarOutput {
    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        if command.value("since") != nil {
            throw UsageError(kind: .conflictingOptions("--ical", "--since"), commandPath: command.path)
        }
        let log = try context.readLog()
        let state = try context.readState(log)
        let todos = state.todos.filter { !$0.deleted && $0.due != nil }
        let text = ICalendarExport.calendar(todos, series: { state.series[$0] }, zone: context.zone, now: context.now, version: BuildVersion.version)
        guard let path = command.value("output") else {
            // Written as it is: the CRLF line ends are part of the format.
            context.console.raw(text)
            return
        }
        let file = try FileOutput(path: path)
        try file.append(text)
        try file.finish()
        if context.json {
            context.printJSON(.object(["todos": .int(Int64(todos.count)), "path": .string(path)]))
        } else {
            context.console.line(context.catalog.plural(.icalExported, count: todos.count, ["path": path]))
        }
    }
}
