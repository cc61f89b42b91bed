#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEngine
import TallyDomain
import TallyArguments

/// `tally completions bash|zsh|fish`
enum CompletionsCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "completions",
        abstract: "Print a shell completion script.",
        discussion: "Commands, options and fixed values are completed from the script; tags and categories are read from your database as you type.",
        arguments: [ArgumentSpec(name: "SHELL", help: "bash, zsh or fish.")],
        examples: [
            CommandExample("tally completions bash > ~/.local/share/bash-completion/completions/tally", "Install bash completion for your user."),
            CommandExample("tally completions zsh > ~/.zfunc/_tally", "Install zsh completion (with ~/.zfunc in $fpath, before compinit)."),
            CommandExample("tally completions fish > ~/.config/fish/completions/tally.fish", "Install fish completion."),
        ]
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let shell = command.arguments[0]
        let model = CompletionModel(root: CommandTree.root, globalOptions: CommandTree.globalOptions)
        switch shell {
        case "bash": context.console.out(BashCompletion.script(model))
        case "zsh": context.console.out(ZshCompletion.script(model))
        case "fish": context.console.out(FishCompletion.script(model))
        default: throw UsageError(kind: .invalidValue(option: "SHELL", value: shell, allowed: CompletionModel.shells), commandPath: command.path)
        }
    }
}

/// `tally __complete tags|categories [PREFIX]`: the words completion scripts ask for, one per line.
///
/// Reads the database read-only and never creates it; a missing or unreadable database yields no words.
enum CompleteCommand: CommandHandler {
    static let spec = CommandSpec(
        name: "__complete",
        abstract: "Print completion words from the database.",
        arguments: [
            ArgumentSpec(name: "KIND", help: "tags or categories."),
            ArgumentSpec(name: "PREFIX", help: "Only words starting with this.", optional: true),
        ],
        hidden: true
    )

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let kind = command.arguments[0]
        // Stored tags and categories are lowercase NFC: `Čt` typed completes `čtení`.
        let prefix = TextForm.normalized((command.arguments.count > 1 ? command.arguments[1] : "").lowercased())
        guard kind == "tags" || kind == "categories" else {
            throw UsageError(kind: .invalidValue(option: "KIND", value: kind, allowed: ["tags", "categories"]), commandPath: command.path)
        }
        guard let log = try? context.openForReading(),
              !log.needsMigration,
              let state = try? context.readState(log)
        else { return }
        var counts: [String: Int] = [:]
        if kind == "tags" {
            for todo in state.todos where !todo.deleted {
                for tag in todo.tags { counts[tag, default: 0] += 1 }
            }
        } else {
            for record in state.records where !record.deleted { counts[record.category, default: 0] += 1 }
        }
        for word in counts.keys.sorted() where word.hasPrefix(prefix) {
            context.console.line(word)
        }
    }
}

/// `tally __man`: the manual page in roff, from the command specs.
enum ManCommand: CommandHandler {
    static let spec = CommandSpec(name: "__man", abstract: "Print the manual page (roff).", hidden: true)

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        let date = context.settings.fixedNow.map { String(Timestamp.format($0).prefix(10)) } ?? ManCommand.releaseDate
        context.console.out(ManPage.render(root: CommandTree.root, globalOptions: CommandTree.globalOptions, version: TallyCLI.version, date: date))
    }

    /// The date printed in the page footer; fixed so that `make man` is reproducible.
    static let releaseDate = "2026-11-21"
}

/// `tally __reference`: the command reference in Markdown (`docs/reference/commands.md`), from the command specs.
enum ReferenceCommand: CommandHandler {
    static let spec = CommandSpec(name: "__reference", abstract: "Print the command reference (Markdown).", hidden: true)

    static func run(_ command: ParsedCommand, _ context: CLIContext) throws {
        context.console.out(CommandReference.render(root: CommandTree.root, globalOptions: CommandTree.globalOptions, version: TallyCLI.version))
    }
}
