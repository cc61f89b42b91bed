# Homebrew formula for tally. `make dist` writes a copy with the source tarball's URL, checksum and
# version filled in (.build/dist/tally.rb); publish that copy in a tap. The build is stamped from
# the tarball's .tarball-version, so `tally --version` names the release and its commit.
class Tally < Formula
  desc "Event-sourced todo list and training log for the command line"
  homepage "https://tally.invalid/"
  url "@URL@"
  sha256 "@SHA256@"
  version "@VERSION@"
  license "Apache-2.0"

  depends_on xcode: ["16.0", :build]
  depends_on "libpq" # loaded at run time to open a shared PostgreSQL log
  depends_on "sqlite"

  uses_from_macos "swift" => :build
  uses_from_macos "zlib"

  def install
    stamp = Utils.safe_popen_read("scripts/version-stamp").split
    system "swift", "build", "--disable-sandbox", "-c", "release", *stamp
    bin.install ".build/release/tally"
    (man1/"tally.1").write Utils.safe_popen_read(bin/"tally", "__man")
    generate_completions_from_executable(bin/"tally", "completions", shells: [:bash, :zsh, :fish])
  end

  test do
    assert_match "tally #{version}", shell_output("#{bin}/tally --version")
    ENV["TALLY_DB"] = testpath/"test.db"
    system bin/"tally", "add", "Buy oat milk", "--tag", "shop"
    assert_match "Buy oat milk", shell_output("#{bin}/tally list")
    system bin/"tally", "record", "add", "Morning run", "--category", "running", "--duration", "27:30", "--distance", "5km"
    assert_match "5.00 km", shell_output("#{bin}/tally record list")
    system bin/"tally", "verify"
  end
end
