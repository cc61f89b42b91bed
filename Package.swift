// swift-tools-version:6.0
// tally: licensed under the Apache License 2.0 (SPDX: Apache-2.0), see LICENSE.
import PackageDescription

/// Layers, innermost first. Arrows point inward:
/// TallyDomain (pure) <- TallyStorage (the only SQLite importer)
/// TallyDomain <- TallyPostgres (the only libpq importer)
/// TallyStorage, TallyPostgres <- TallyBackends (opens the store a location names)
/// TallyDomain <- TallyApp (dispatcher, projections) <- TallyCLI <- tally
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
        .target(name: "TallyDomain"),
        // Decompression of .gz activity files: the only module that links zlib.
        .target(name: "TallyZlib", dependencies: ["CZlib"]),
        .target(name: "TallyStorage", dependencies: ["TallyDomain", "CSQLite"]),
        .target(name: "TallyPostgres", dependencies: ["TallyDomain", "CLibPQ"]),
        .target(name: "TallyBackends", dependencies: ["TallyDomain", "TallyStorage", "TallyPostgres"]),
        .target(name: "TallyApp", dependencies: ["TallyDomain"]),
        .target(name: "TallyCLI", dependencies: ["TallyDomain", "TallyApp", "TallyBackends", "TallyZlib"]),
        .executableTarget(name: "tally", dependencies: ["TallyCLI"]),
        // The benchmark harness: generates stores through the library, times the built binary, and
        // talks to SQLite directly only for the raw-SQLite baseline it compares against; the PostgreSQL
        // figures run on a throw-away cluster started like the tests' (TallyTestSupport).
        .executableTarget(name: "tally-bench", dependencies: ["TallyDomain", "TallyStorage", "TallyBackends", "TallyApp", "TallyTestSupport", "CSQLite", "TallyZlib"], path: "Benchmarks/TallyBench"),
        .target(name: "TallyTestSupport", dependencies: ["TallyDomain"], path: "Tests/TallyTestSupport"),
        .testTarget(name: "TallyDomainTests", dependencies: ["TallyDomain", "TallyTestSupport"]),
        .testTarget(name: "TallyStorageTests", dependencies: ["TallyStorage", "TallyDomain", "TallyTestSupport"]),
        .testTarget(name: "TallyPostgresTests", dependencies: ["TallyPostgres", "TallyBackends", "TallyDomain", "TallyApp", "TallyTestSupport"]),
        .testTarget(name: "TallyAppTests", dependencies: ["TallyApp", "TallyDomain", "TallyStorage", "TallyBackends", "TallyTestSupport"]),
        .testTarget(name: "TallyCLITests", dependencies: ["TallyCLI", "TallyDomain", "TallyStorage", "TallyBackends", "TallyTestSupport", "TallyZlib", "tally"], exclude: ["Golden", "Fixtures"]),
    ]
)
