import Foundation

/// Compares the migrations compiled into a binary with the SQL files of a `migrations/` folder.
public enum MigrationDrift {
    /// Every difference between the `.sql` files in `folder` (relative to the package) and the
    /// embedded `(version, name, sql)` list, in words; empty when they match exactly.
    public static func differences(folder: String, embedded: [(version: Int, name: String, sql: String)]) throws -> [String] {
        let url = PackageFiles.url(folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".sql") }.sorted()
        var differences: [String] = []
        if files.count != embedded.count {
            differences.append("\(files.count) files in \(folder), \(embedded.count) embedded: run 'make migrations' after adding a migration")
        }
        for (file, migration) in zip(files, embedded) {
            let text = try String(contentsOf: url.appendingPathComponent(file), encoding: .utf8)
            if file != migration.name + ".sql" || Int(file.prefix(4)) != migration.version {
                differences.append("\(file) is embedded as \(migration.version) \(migration.name)")
            }
            if text != migration.sql + "\n" {
                differences.append("\(file) differs from the embedded copy: run 'make migrations'")
            }
        }
        return differences
    }
}
