/// Fuzzes the argument parser with a tree shaped like tally's: NUL bytes separate the arguments.
/// Parsing must return an invocation or a usage error, never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArguments(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    _ = try? FuzzTree.parser.parse(arguments)
    return 0
}

enum FuzzTree {
    static let view = [
        OptionSpec(name: "status", valueName: "STATUS", help: "s", allowedValues: ["active", "completed", "all"]),
        OptionSpec(name: "tag", valueName: "TAG", repeatable: true, help: "t"),
        OptionSpec(name: "sort", valueName: "KEY", help: "k", defaultValue: "created", allowedValues: ["created", "due"]),
        OptionSpec(name: "reverse", help: "r"),
        OptionSpec(name: "limit", valueName: "N", help: "n"),
        OptionSpec(name: "secret", valueName: "X", help: "x", hidden: true),
    ]
    static let root = CommandSpec(
        name: "tally", abstract: "a",
        subcommands: [
            CommandSpec(name: "add", abstract: "a", arguments: [ArgumentSpec(name: "TITLE", help: "t", repeating: true)], options: [view[1]]),
            CommandSpec(name: "toggle", abstract: "t", arguments: [ArgumentSpec(name: "REF", help: "r", repeating: true, optional: true)], options: [OptionSpec(name: "all", help: "a")]),
            CommandSpec(name: "list", aliases: ["ls"], abstract: "l", options: view),
            CommandSpec(name: "show", abstract: "s", arguments: [ArgumentSpec(name: "REF", help: "r")]),
            CommandSpec(name: "filter", abstract: "f", subcommands: [
                CommandSpec(name: "set", abstract: "s", options: view), CommandSpec(name: "reset", abstract: "r"),
            ]),
            CommandSpec(name: "record", abstract: "r", subcommands: [
                CommandSpec(name: "add", abstract: "a", arguments: [ArgumentSpec(name: "NAME", help: "n", repeating: true)],
                            options: [OptionSpec(name: "duration", valueName: "D", help: "d")]),
                CommandSpec(name: "filter", abstract: "f", subcommands: [CommandSpec(name: "show", abstract: "s")]),
            ]),
            CommandSpec(name: "debug", abstract: "d", hidden: true),
        ]
    )
    static let parser = ArgumentParser(root: root, globalOptions: [
        OptionSpec(name: "db", valueName: "PATH", help: "p"), OptionSpec(name: "json", help: "j"), OptionSpec(name: "no-color", help: "c"),
    ])
}
