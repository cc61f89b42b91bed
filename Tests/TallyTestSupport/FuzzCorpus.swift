import Foundation

/// The committed fuzz corpus (Fuzz/corpus), replayed by the test targets of the modules the fuzz targets exercise.
public enum FuzzCorpus {
    /// Every input of one fuzz target's corpus folder, by name, sorted.
    public static func inputs(_ target: String) -> [(String, [UInt8])] {
        let folder = PackageFiles.url("Fuzz/corpus/\(target)")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().compactMap { name in
            (try? Data(contentsOf: folder.appendingPathComponent(name))).map { (name, Array($0)) }
        }
    }
}
