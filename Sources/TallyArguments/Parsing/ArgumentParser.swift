/// A command that will run, with everything given on its command line.
public struct ParsedCommand: Sendable, Equatable {
    /// Canonical names from the top level down, aliases resolved: `["record", "filter", "set"]`.
    public var path: [String]
    /// Option name (no dashes) to its values in command-line order; only options that take values.
    public var options: [String: [String]] = [:]
    /// Names of the flags that were given.
    public var flags: Set<String> = []
    /// Positionals in order, already checked against the command's `ArgumentSpec`s.
    public var arguments: [String] = []

    /// The last value given for `name`.
    public func value(_ name: String) -> String? { options[name]?.last }

    /// Every value given for `name`, in order.
    public func values(_ name: String) -> [String] { options[name] ?? [] }

    /// Whether the flag `name` was given.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// Options that apply to every command (`--db`, `--json`, …), wherever they appeared.
public struct GlobalOptions: Sendable, Equatable {
    /// Option name (no dashes) to its value; the last one wins for repeatable globals.
    public var values: [String: String] = [:]
    public var flags: Set<String> = []

    /// The value given for `name`.
    public func value(_ name: String) -> String? { values[name] }

    /// Whether the flag `name` was given.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }
}

/// What the command line asks for.
public enum Invocation: Sendable, Equatable {
    case run(ParsedCommand, GlobalOptions)
    /// `-h`/`--help`, `help <command>…`, or a command group given no subcommand.
    /// An empty path means the top level, which the CLI shows as the overview.
    case help(path: [String], GlobalOptions)
    case version(GlobalOptions)
    /// No command at all.
    case overview(GlobalOptions)
}

/// Turns `CommandLine.arguments.dropFirst()` into an `Invocation`, following
/// swift-argument-parser's conventions.
///
/// Precedence: `-h`/`--help` anywhere before `--` wins over everything, even over errors
/// elsewhere on the line; then `--version`; then the first usage error in command-line order.
public struct ArgumentParser: Sendable {
    /// The built-in `-h, --help`, accepted by every command and listed in every help text.
    public static let helpOption = OptionSpec(name: "help", short: "h", help: "Show help information.")
    /// The built-in `--version`, accepted anywhere unless a command defines its own `--version`.
    public static let versionOption = OptionSpec(name: "version", help: "Show the version.")
    /// The word that starts `tally help <command>…`, unless the tree defines a `help` command.
    public static let helpCommandName = "help"

    public let root: CommandSpec
    public let globalOptions: [OptionSpec]

    /// `root.subcommands` are the top-level commands; `globalOptions` are accepted anywhere.
    public init(root: CommandSpec, globalOptions: [OptionSpec]) {
        self.root = root
        self.globalOptions = globalOptions
    }

    /// Parses the arguments after the program name.
    public func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var scan = Scan(root: root, globalSpecs: globalOptions)
        scan.consume(arguments)
        return try scan.finish()
    }
}

/// One left-to-right pass over the arguments that records the first error instead of
/// throwing, so a later `--help` can still win.
private struct Scan {
    /// What an option token refers to.
    private enum Target {
        case help, version
        case command(OptionSpec)
        case global(OptionSpec)
    }

    public let root: CommandSpec
    public let globalSpecs: [OptionSpec]
    private var command: CommandSpec
    private var path: [String] = []
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []
    private var positionals: [String] = []
    private var globals = GlobalOptions()
    private var helpRequested = false
    private var versionRequested = false
    /// Inside `tally help …`: words name commands, and the result is help for them.
    private var helpCommand = false
    /// After an unknown command word, later words cannot be interpreted.
    private var commandLookupFailed = false
    private var firstError: UsageError?

    public init(root: CommandSpec, globalSpecs: [OptionSpec]) {
        self.root = root
        self.globalSpecs = globalSpecs
        self.command = root
    }

    /// Reads every argument, updating the state.
    public mutating func consume(_ arguments: [String]) {
        var rest = arguments[...]
        var onlyPositionals = false
        while let argument = rest.popFirst() {
            if onlyPositionals {
                positionals.append(argument)
            } else if argument == "--" {
                onlyPositionals = true
            } else if argument.hasPrefix("-") && argument != "-" {
                option(argument, rest: &rest)
            } else {
                word(argument)
            }
        }
    }

    /// Decides the invocation once all arguments are read.
    public func finish() throws(UsageError) -> Invocation {
        if helpRequested { return .help(path: path, globals) }
        if versionRequested { return .version(globals) }
        if let firstError { throw firstError }
        if helpCommand { return .help(path: path, globals) }
        if !command.subcommands.isEmpty {
            if let extra = positionals.first {
                throw UsageError(.unexpectedArgument(extra), commandPath: path)
            }
            if let name = command.defaultSubcommand, let fallback = command.subcommand(named: name), options.isEmpty, flags.isEmpty {
                try Self.check([], against: fallback.arguments, path: path + [fallback.name])
                return .run(ParsedCommand(path: path + [fallback.name], options: options, flags: flags, arguments: []), globals)
            }
            return path.isEmpty ? .overview(globals) : .help(path: path, globals)
        }
        try Self.check(positionals, against: command.arguments, path: path)
        let parsed = ParsedCommand(path: path, options: options, flags: flags, arguments: positionals)
        return .run(parsed, globals)
    }

    /// A word outside `--`: a command name while the current command has subcommands,
    /// otherwise a positional.
    private mutating func word(_ word: String) {
        if commandLookupFailed { return }
        if !command.subcommands.isEmpty {
            if offersHelpCommand && word == ArgumentParser.helpCommandName {
                helpCommand = true
            } else if let next = command.subcommand(named: word) {
                path.append(next.name)
                command = next
            } else {
                var candidates = command.subcommands.filter { !$0.hidden }.flatMap { [$0.name] + $0.aliases }
                if offersHelpCommand { candidates.append(ArgumentParser.helpCommandName) }
                let suggestion = EditDistance.suggestion(for: word, among: candidates)
                fail(.unknownCommand(word, suggestion: suggestion))
                commandLookupFailed = true
            }
        } else if helpCommand {
            fail(.unexpectedArgument(word))
        } else {
            positionals.append(word)
        }
    }

    /// Whether a `help` word here starts `tally help …`.
    private var offersHelpCommand: Bool {
        path.isEmpty && !helpCommand && root.subcommand(named: ArgumentParser.helpCommandName) == nil
    }

    /// A token starting with `-`: `--name`, `--name=value`, `-n`.
    private mutating func option(_ argument: String, rest: inout ArraySlice<String>) {
        let name: String
        let display: String
        var inlineValue: String?
        var target: Target?
        if argument.hasPrefix("--") {
            let body = argument.dropFirst(2)
            if let equals = body.firstIndex(of: "=") {
                name = String(body[..<equals])
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = String(body)
            }
            display = "--" + name
            target = lookup(long: name)
        } else {
            let body = argument.dropFirst()
            name = String(body)
            display = argument
            if body.count == 1, let letter = body.first {
                target = lookup(short: letter)
            }
        }

        if target == nil, let fallback = defaultFallback {
            // `tally goal --as-of X` is `tally goal show --as-of X`: an option the group does not know
            // and its default subcommand does takes the parse into that subcommand.
            let group = command
            command = fallback
            target = argument.hasPrefix("--") ? lookup(long: name) : (name.count == 1 ? name.first.flatMap(lookup(short:)) : nil)
            if target == nil { command = group } else { path.append(fallback.name) }
        }

        switch target {
        case nil:
            guard firstError == nil else { return }
            fail(.unknownOption(display, suggestion: suggestOption(for: name)))
        case .help:
            helpRequested = true
        case .version:
            versionRequested = true
        case .command(let spec):
            guard let value = takeValue(spec, display: display, inline: inlineValue, rest: &rest) else { return }
            let seen = options[spec.name] != nil || flags.contains(spec.name)
            if seen && !spec.repeatable { return fail(.repeatedOption(spec.displayName)) }
            guard let value else { flags.insert(spec.name); return }
            guard isAllowed(value, for: spec) else { return }
            options[spec.name, default: []].append(value)
        case .global(let spec):
            guard let value = takeValue(spec, display: display, inline: inlineValue, rest: &rest) else { return }
            let seen = globals.values[spec.name] != nil || globals.flags.contains(spec.name)
            if seen && !spec.repeatable { return fail(.repeatedOption(spec.displayName)) }
            guard let value else { globals.flags.insert(spec.name); return }
            guard isAllowed(value, for: spec) else { return }
            globals.values[spec.name] = value
        }
    }

    /// `.some(nil)` for a flag, `.some(value)` for an option, nil after recording an error.
    ///
    /// The next argument is taken unconditionally, so `--due -2w` and `--tag -home` work.
    private mutating func takeValue(
        _ spec: OptionSpec, display: String, inline: String?, rest: inout ArraySlice<String>
    ) -> String?? {
        guard spec.takesValue else {
            if inline != nil {
                fail(.custom("Option '\(display)' does not take a value."))
                return nil
            }
            return .some(nil)
        }
        if let inline { return .some(inline) }
        if let next = rest.popFirst() { return .some(next) }
        fail(.missingValue(option: display))
        return nil
    }

    /// The default subcommand of the current group, while no command word has failed to resolve.
    private var defaultFallback: CommandSpec? {
        guard !command.subcommands.isEmpty, !commandLookupFailed, !helpCommand, let name = command.defaultSubcommand else { return nil }
        return command.subcommand(named: name)
    }

    /// Checks `allowedValues`, recording an error when `value` is not among them.
    private mutating func isAllowed(_ value: String, for spec: OptionSpec) -> Bool {
        guard let allowed = spec.allowedValues, !allowed.contains(value) else { return true }
        fail(.invalidValue(option: spec.displayName, value: value, allowed: allowed))
        return false
    }

    /// Resolves `--name`: the built-in help first, then the command, the globals, the built-in version.
    private func lookup(long name: String) -> Target? {
        if name == ArgumentParser.helpOption.name { return .help }
        if let spec = command.options.first(where: { $0.name == name }) { return .command(spec) }
        if let spec = globalSpecs.first(where: { $0.name == name }) { return .global(spec) }
        if name == ArgumentParser.versionOption.name { return .version }
        return nil
    }

    /// Resolves `-x` in the same order as `lookup(long:)`.
    private func lookup(short letter: Character) -> Target? {
        if letter == ArgumentParser.helpOption.short { return .help }
        if let spec = command.options.first(where: { $0.short == letter }) { return .command(spec) }
        if let spec = globalSpecs.first(where: { $0.short == letter }) { return .global(spec) }
        return nil
    }

    /// The visible long option closest to `name`, with its dashes.
    private func suggestOption(for name: String) -> String? {
        let visible = (command.options + globalSpecs).filter { !$0.hidden }.map(\.name)
        let candidates = visible + [ArgumentParser.helpOption.name, ArgumentParser.versionOption.name]
        return EditDistance.suggestion(for: name, among: candidates).map { "--" + $0 }
    }

    /// Keeps the first error; later ones are usually consequences of it.
    private mutating func fail(_ kind: UsageError.Kind) {
        if firstError == nil { firstError = UsageError(kind, commandPath: path) }
    }

    /// Matches positionals to the specs: each required one needs a value, a repeating one
    /// takes what the later required ones leave over, and nothing may be left unmatched.
    private static func check(_ values: [String], against specs: [ArgumentSpec], path: [String]) throws(UsageError) {
        var remaining = values.count
        for (index, spec) in specs.enumerated() {
            let requiredAfter = specs[(index + 1)...].filter { !$0.optional }.count
            let available = max(0, remaining - requiredAfter)
            let taken = spec.repeating ? available : min(available, 1)
            if taken == 0 && !spec.optional {
                throw UsageError(.missingArgument(spec.name), commandPath: path)
            }
            remaining -= taken
        }
        if remaining > 0 {
            throw UsageError(.unexpectedArgument(values[values.count - remaining]), commandPath: path)
        }
    }
}
