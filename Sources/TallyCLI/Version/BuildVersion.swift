/// What `tally --version` and `tally info` say this binary is.
///
/// `release` is the version of the newest CHANGELOG.md entry. A build through the Makefile
/// (`make release`, `make install`, `make dist`) stamps the binary with `git describe --tags` and the
/// commit: `scripts/version-stamp` writes `BuildStamp.generated.swift` beside this file (not committed)
/// and the build passes `-DTALLY_STAMPED`. A plain `swift build`, a source tree without `.git` and a
/// repository without a version tag all fall back to `release` with no commit.
public enum BuildVersion {
    /// The version of this source tree when no tag says otherwise; CHANGELOG.md's top entry names it.
    public static let release = "0.11.0"

    #if TALLY_STAMPED
    /// The version the build was stamped with: `0.9.0`, `0.9.0-3-g1a2b3c4` past a tag, `-dirty` with uncommitted changes.
    public static let version = BuildStamp.version ?? release
    /// The commit the binary was built from, in full.
    public static let commit: String? = BuildStamp.commit
    #else
    public static let version = release
    public static let commit: String? = nil
    #endif

    /// `0.9.0 (commit 1a2b3c4d5e6f)`, or only the version when the commit is unknown.
    public static var description: String {
        describe(version: version, commit: commit)
    }

    /// The text of `description` for any version and commit: the commit is cut to 12 characters.
    static func describe(version: String, commit: String?) -> String {
        guard let commit, !commit.isEmpty else { return version }
        return "\(version) (commit \(commit.prefix(12)))"
    }
}
