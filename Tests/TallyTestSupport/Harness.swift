// The servers and synthetic tracks live in TallyTestHarness, which the benchmark links too; every
// test that imports TallyTestSupport sees them as before.
@_exported import TallyTestHarness
