#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain
import TallyEssentials
import TallyArguments

/// The command-line program: parses arguments, runs one command, reports errors with the documented exit codes.
public enum TallyCLI {
    public static let version = "0.1.0"

    /// Runs tally with the raw bytes of its arguments: an argument that is not valid UTF-8 is refused (exit 65)
    /// instead of being silently repaired into something the user did not type.
    public static func main(rawArguments: [[UInt8]], environment: [String: String]) -> Int32 {
        var arguments: [String] = []
        for (index, bytes) in rawArguments.enumerated() {
            guard let text = String(bytes: bytes, encoding: .utf8) else {
                let console = Console()
                defer { console.flush() }
                let failure = Failure(exit: .invalidData, code: "invalid_data", message: Catalog.english.text(.errorInvalidUTF8, ["position": String(index + 1)]))
                report(failure, json: rawArguments.contains(Array("--json".utf8)), console: console, catalog: .english)
                return failure.exit.rawValue
            }
            arguments.append(text)
        }
        return main(arguments: arguments, environment: environment)
    }

    /// Runs tally with the given arguments (without the program name) and environment; returns the exit code.
    public static func main(arguments: [String], environment: [String: String]) -> Int32 {
        let console = Console()
        defer { console.flush() }
        let catalog = Catalog.forEnvironment(environment)
        let wantsJSON = arguments.prefix { $0 != "--" }.contains("--json")
        let errorColor = Settings.useColor(
            noColorFlag: arguments.prefix { $0 != "--" }.contains("--no-color"), stdoutIsTerminal: console.stderrIsTerminal, environment: environment
        )
        var opened: CLIContext?
        defer { opened?.closeDatabases() }
        do {
            let parser = ArgumentParser(root: CommandTree.root, globalOptions: CommandTree.globalOptions)
            switch try parser.parse(arguments) {
            case .version:
                console.line("tally \(version)")
            case .overview:
                console.out(ShortOverview.render(root: CommandTree.root))
            case .help(let path, _):
                let spec = CommandTree.root.descendant(at: path) ?? CommandTree.root
                console.out(HelpRenderer.render(spec, path: path, globalOptions: CommandTree.globalOptions))
            case .run(let command, let globals):
                if globals.value("db") == "" {
                    throw UsageError(kind: .missingValue(option: "--db"), commandPath: command.path)
                }
                let settings = try makeSettings(globals, console: console, environment: environment)
                let context = CLIContext(settings: settings, catalog: catalog, console: console)
                opened = context
                // Never released: see `CLIContext.keptUntilExit`.
                _ = Unmanaged.passRetained(context)
                guard let handler = CommandTree.handler(for: command.path) else {
                    throw UsageError(kind: .unknownCommand(command.path.joined(separator: " "), suggestion: nil), commandPath: [])
                }
                try context.runStartingOverOnDamage { try handler.run(command, context) }
                // Only a command that writes leaves a new database file behind.
                context.removeDatabaseLeftEmpty()
            }
            return ExitCode.success.rawValue
        } catch {
            // A failed command leaves no new database file behind either.
            opened?.removeDatabaseLeftEmpty()
            // A command stopped after its work was saved printed its report first: it stays above the message.
            if (error as? Interruption.Interrupted)?.message == .errorInterruptedAfterSaving { console.flush() }
            let failure = FailureMapper.failure(for: error, catalog: catalog)
            report(failure, json: wantsJSON, console: console, catalog: catalog, color: errorColor)
            return failure.exit.rawValue
        }
    }

    static func makeSettings(_ globals: GlobalOptions, console: Console, environment: [String: String]) throws -> Settings {
        var fixedNow: Int64? = nil
        if let raw = environment["TALLY_NOW"], !raw.isEmpty {
            guard let ms = Timestamp.parse(raw) else { throw CLIError.invalidNow(raw) }
            fixedNow = ms
        }
        return Settings(
            databasePath: Settings.databasePath(option: globals.values["db"], environment: environment),
            json: globals.flags.contains("json"),
            color: Settings.useColor(noColorFlag: globals.flags.contains("no-color"), stdoutIsTerminal: console.stdoutIsTerminal, environment: environment),
            unicode: Settings.useUnicode(environment: environment),
            width: TerminalWidth.forOutput(1, isTerminal: console.stdoutIsTerminal, environment: environment),
            actor: Settings.actor(environment: environment),
            fixedNow: fixedNow,
            zone: Settings.zone(environment: environment),
            busyTimeout: Settings.busyTimeout(environment: environment)
        )
    }

    /// Prints a failure on stderr; with `color`, the `Error:` prefix is red.
    static func report(_ failure: Failure, json: Bool, console: Console, catalog: Catalog, color: Bool = false) {
        if json {
            let error: JSON = .object(["error": .object(["code": .string(failure.code), "message": .string(failure.message)])])
            console.errorLine(error.serialized(.compact))
            return
        }
        if color {
            let prefix = catalog.text(.errorPrefix, ["message": ""]).trimming(.whitespaces)
            console.errorLine(Style(color: true).red(prefix) + " " + failure.message)
        } else {
            console.errorLine(catalog.text(.errorPrefix, ["message": failure.message]))
        }
        for detail in failure.details { console.errorLine(detail) }
        if let path = failure.usagePath {
            let spec = CommandTree.root.descendant(at: path) ?? CommandTree.root
            console.errorLine(catalog.text(.usagePrefix, ["usage": HelpRenderer.usageLine(spec, path: path, programName: "tally")]))
            let command = (["tally"] + path).joined(separator: " ")
            console.errorLine(catalog.text(.usageSeeHelp, ["command": command]))
        }
    }
}
