// swift-tools-version:6.0
// tally: licensed under the Apache License 2.0 (SPDX: Apache-2.0), see LICENSE.
import PackageDescription

/// Modules by responsibility, innermost first; every arrow points inward (docs/design/architecture.md):
/// TallyEssentials (building blocks) <- TallyPlatform (system calls) and TallyDomain (the pure model and its ports)
/// TallyDomain <- TallyEngine (use cases) <- TallyInterchange (other programs' files)
/// TallyDomain <- TallySQLite, TallyPostgres (the ports on each backend) <- TallyStores (which backends exist)
/// TallyEssentials <- TallyArguments (specs, parser, help, generators)
/// TallyEngine, TallyInterchange, TallyStores, TallyArguments <- TallyCLI <- tally
/// Release builds optimise across module boundaries from the modules the hot paths run through
/// (TallyEssentials, TallyDomain, TallyEngine, TallySQLite): the payload scanner, the snapshot codec,
/// the hash chain, the fold and the list call their small functions per event or per row, which a
/// module-at-a-time build would leave as calls. The other modules are called a few times a command and
/// build without it: their bodies are not offered to their callers for inlining, which adds no code there.
let acrossModules: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]
/// Optimised for size: only a module no hot path runs through and whose objects the linker reads after
/// those of TallyEssentials, TallyDomain and TallyEngine (objects are linked in module name order). The linker
/// keeps the first of the identical-named copies that modules make of a generic specialisation or an
/// outlined copy of a value, so a module built for size ahead of them would hand its slower copies to
/// the hot paths: TallyCLI and TallyArguments built for size made `list` run 8.9 % and `rebuild` 3.1 %
/// more instructions (docs/performance.md, "Binary size").
let forSize: [SwiftSetting] = [.unsafeFlags(["-Osize"], .when(configuration: .release))]

let package = Package(
    name: "tally",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "tally", targets: ["tally"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // libpq's header only: TallyPostgres loads the library when a PostgreSQL log is opened
        // (LibPQ.swift), so the binary does not link it and SQLite commands never load it.
        .systemLibrary(
            name: "CLibPQ",
            providers: [.apt(["libpq-dev"]), .brew(["libpq"])]
        ),
        // Building blocks with no knowledge of tally's model: JSON, hashes, binary and text scalars, zone rules.
        .target(name: "TallyEssentials", swiftSettings: acrossModules),
        // Every system call the core needs: file probes, the zone database, the process environment.
        .target(name: "TallyPlatform", dependencies: ["TallyEssentials"]),
        // The model: values, events, deciders, reducers, read models (and their snapshot item tables),
        // queries, recurrence, history, the sync rebase, the hash chain, and the ports a store implements.
        .target(name: "TallyDomain", dependencies: ["TallyEssentials"], swiftSettings: acrossModules),
        // The use cases on the ports: dispatcher, state loading and the snapshot policy, undo, sync, projections.
        .target(name: "TallyEngine", dependencies: ["TallyEssentials", "TallyDomain"], swiftSettings: acrossModules),
        // Files from elsewhere: GPX/TCX/FIT, Strava/Garmin CSVs, gzip (the only zlib user), Taskwarrior and todo.txt.
        .target(name: "TallyInterchange", dependencies: ["TallyEssentials", "TallyEngine", "TallyPlatform", "CZlib"], swiftSettings: forSize),
        .target(name: "TallySQLite", dependencies: ["TallyEssentials", "TallyDomain", "TallyPlatform", "CSQLite"], swiftSettings: acrossModules),
        .target(name: "TallyPostgres", dependencies: ["TallyEssentials", "TallyDomain", "CLibPQ"]),
        // Which backends exist: a location (path or URI) to an opened store.
        .target(name: "TallyStores", dependencies: ["TallyEssentials", "TallyDomain", "TallySQLite", "TallyPostgres"]),
        // Command specs, the parser, help and usage errors, and the bash/zsh/fish/man generators.
        .target(name: "TallyArguments", dependencies: ["TallyEssentials"]),
        .target(name: "TallyCLI", dependencies: ["TallyEssentials", "TallyEngine", "TallyInterchange", "TallyStores", "TallyArguments", "TallyPlatform"]),
        // The static Swift runtime links executables with -export-dynamic, which put every public symbol of
        // the modules (8,500) in the dynamic symbol table that the runtime's one dladdr at start walks.
        // Nothing loads tally as a library, so the table keeps only what the C libraries need.
        // Release builds fold functions of identical code whose address is never taken (--icf=safe; 4,800
        // in this build, most of them in the static Swift libraries): 225 kB less, the same instructions run.
        .executableTarget(name: "tally", dependencies: ["TallyCLI"],
                          linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux])),
                                           .unsafeFlags(["-Xlinker", "--icf=safe"], .when(platforms: [.linux], configuration: .release))]),
        // The benchmark harness: generates stores through the library, times the built binary, and
        // talks to SQLite directly only for the raw-SQLite baseline it compares against; the PostgreSQL
        // figures run on a throw-away cluster started like the tests' (TallyTestHarness).
        .executableTarget(name: "tally-bench", dependencies: ["TallyDomain", "TallySQLite", "TallyPostgres", "TallyStores", "TallyEngine", "TallyTestHarness", "CSQLite", "TallyInterchange"], path: "Benchmarks/TallyBench"),
        // What the tests and the benchmark share: throw-away PostgreSQL servers and tracks of known geometry.
        // It uses only public API, so the release build of the benchmark needs no -enable-testing.
        .target(name: "TallyTestHarness", dependencies: ["TallyDomain"], path: "Tests/TallyTestHarness"),
        .target(name: "TallyTestSupport", dependencies: ["TallyEssentials", "TallyDomain", "TallyInterchange", "TallyTestHarness"], path: "Tests/TallyTestSupport"),
        // One test target per module, each depending on what its tests use (and TallyTestSupport).
        .testTarget(name: "TallyEssentialsTests", dependencies: ["TallyEssentials", "TallyPlatform", "TallyTestSupport"]),
        .testTarget(name: "TallyDomainTests", dependencies: ["TallyEssentials", "TallyDomain", "TallyTestSupport"]),
        .testTarget(name: "TallyEngineTests", dependencies: ["TallyEssentials", "TallyDomain", "TallyEngine", "TallyInterchange", "TallySQLite", "TallyStores", "TallyTestSupport"]),
        .testTarget(name: "TallyInterchangeTests", dependencies: ["TallyEssentials", "TallyDomain", "TallyInterchange", "TallyTestSupport"]),
        .testTarget(name: "TallySQLiteTests", dependencies: ["TallyEssentials", "TallyDomain", "TallySQLite", "CSQLite", "TallyTestSupport"]),
        .testTarget(name: "TallyPostgresTests", dependencies: ["TallyEssentials", "TallyDomain", "TallyEngine", "TallyPostgres", "TallyTestSupport"]),
        // The store contract: every backend (memory, SQLite, PostgreSQL) against the same cases, and store locations.
        .testTarget(name: "TallyStoresTests", dependencies: ["TallyDomain", "TallyEngine", "TallySQLite", "TallyPostgres", "TallyStores", "TallyTestSupport"]),
        .testTarget(name: "TallyArgumentsTests", dependencies: ["TallyEssentials", "TallyArguments"]),
        .testTarget(name: "TallyCLITests", dependencies: ["TallyEssentials", "TallyPlatform", "TallyInterchange", "TallyArguments", "TallyCLI", "TallyDomain", "TallyEngine", "TallySQLite", "TallyPostgres", "TallyStores", "TallyTestSupport", "tally"], exclude: ["Golden", "Fixtures"]),
    ]
)
