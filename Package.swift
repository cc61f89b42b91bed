// swift-tools-version:6.0
import PackageDescription

/// Layers, innermost first. Arrows point inward:
/// TallyDomain (pure) <- TallyStorage (the only SQLite importer)
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
        .target(name: "TallyDomain"),
        // Decompression of .gz activity files: the only module that links zlib.
        .target(name: "TallyZlib", dependencies: ["CZlib"]),
        .target(name: "TallyStorage", dependencies: ["TallyDomain", "CSQLite"]),
        .target(name: "TallyApp", dependencies: ["TallyDomain"]),
        .target(name: "TallyCLI", dependencies: ["TallyDomain", "TallyApp", "TallyStorage", "TallyZlib"]),
        .executableTarget(name: "tally", dependencies: ["TallyCLI"]),
        // The benchmark harness: generates stores through the library, times the built binary, and
        // talks to SQLite directly only for the raw-SQLite baseline it compares against.
        .executableTarget(name: "tally-bench", dependencies: ["TallyDomain", "TallyStorage", "TallyApp", "CSQLite", "TallyTestSupport", "TallyZlib"], path: "Benchmarks/TallyBench"),
        .target(name: "TallyTestSupport", dependencies: ["TallyDomain"], path: "Tests/TallyTestSupport"),
        .testTarget(name: "TallyDomainTests", dependencies: ["TallyDomain", "TallyTestSupport"]),
        .testTarget(name: "TallyStorageTests", dependencies: ["TallyStorage", "TallyDomain", "TallyTestSupport"]),
        .testTarget(name: "TallyAppTests", dependencies: ["TallyApp", "TallyDomain", "TallyStorage", "TallyTestSupport"]),
        .testTarget(name: "TallyCLITests", dependencies: ["TallyCLI", "TallyDomain", "TallyStorage", "TallyTestSupport", "TallyZlib", "tally"], exclude: ["Golden", "Fixtures"]),
    ]
)
