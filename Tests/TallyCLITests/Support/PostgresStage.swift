import Testing

extension Tag {
    /// An end-to-end suite that `make test` runs a second time against PostgreSQL
    /// (`TALLY_TEST_BACKEND=postgresql`). The suite opts in with `.tags(.postgresql)` on its
    /// `@Suite`, and `scripts/test-all` picks the suites so marked, so renaming one cannot drop it.
    @Tag static var postgresql: Self
}
