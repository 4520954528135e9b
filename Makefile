# rlspec — spec verification for HTTP rate limiters.
#
# The two commands a fresh machine needs:
#   make acceptance   the whole suite against the embedded reference (or TARGET_URL=…)
#   make test         the project's own tests
#
# Settings are the target contract's variables (see README.md); make passes
# variables given on its command line to the commands as environment.

GO        ?= go
REPORT_DIR ?= reports
export REPORT_DIR
# testcontainers-go: no registry here, so no Ryuk sidecar.
export TESTCONTAINERS_RYUK_DISABLED ?= true

# Newest mockery v2 the module proxy serves (go list -m -versions github.com/vektra/mockery/v2).
MOCKERY_VERSION := v2.53.7

.PHONY: all help test lint staticcheck vulncheck tidy-check deps-postgres acceptance race load interop selftest image mocks mocks-check fuzz bench bench-history bench-reference bench-stores bench-ceilings compare soak vet clean dist dist-check go-install-check lint-ci readme-check screenshot

all: test

## help: list these targets (each from its '## target:' comment)
help:
	@awk '/^## [a-z-]+:/ { sub(/^## /, ""); n = index($$0, ":"); printf "  %-16s %s\n", substr($$0, 1, n - 1), substr($$0, n + 2) }' $(firstword $(MAKEFILE_LIST))
	@echo; echo "Settings are the target contract's variables (README.md): make acceptance TARGET_URL=http://…"

## test: the project's own tests (CI runs this, then readme-check)
# The self-test matrix drives HTTP servers whose packages have -race tests of
# their own; under the race detector it costs several times its plain time,
# so it runs without it, beside the -race tests: it mostly waits (windows of
# seconds), its race faults are deterministic and its time assumptions are
# checked after the fact, so sharing the machine changes no verdict. The
# same holds of cmd/rlspec's tests, which run the CLI in child processes
# (each a whole suite against the embedded reference, race-instrumented
# under -race): they run beside the self-test, then the fuzz targets follow
# in that background lane, on the CPU its waits leave. Their output follows
# the -race tests'. The lane starts first, and the checks that need no test
# (vet, lint, mocks, CI lint) run while it waits on its windows.
LANE_PKGS = ./selftest ./cmd/rlspec
RACE_PKGS = $$($(GO) list ./... | grep -v -e '/selftest$$' -e '/cmd/rlspec$$')
test: export VULNCHECK_SCAN = package
test: deps-postgres
	@log=$$(mktemp); self=; trap 'rm -f "$$log"; [ -n "$$self" ] && { pkill -P $$self; kill $$self; } 2>/dev/null; true' EXIT; \
	echo "$(GO) test -count=1 -parallel $(TEST_PARALLEL) -timeout 20m $(LANE_PKGS), then make fuzz (beside the checks and the -race tests; their output follows)"; \
	( $(GO) test -count=1 -parallel $(TEST_PARALLEL) -timeout 20m $(LANE_PKGS); s=$$?; \
	  $(MAKE) --no-print-directory fuzz FUZZTIME=$(TEST_FUZZTIME); f=$$?; \
	  [ $$s = 0 ] && [ $$f = 0 ] ) >"$$log" 2>&1 & self=$$!; \
	$(MAKE) --no-print-directory vet lint mocks-check lint-ci || exit 1; \
	echo "$(GO) test -race -count=1 -p $(TEST_PACKAGES) -parallel $(TEST_PARALLEL) -timeout 20m <every package but $(LANE_PKGS)>"; \
	$(GO) test -race -count=1 -p $(TEST_PACKAGES) -parallel $(TEST_PARALLEL) -timeout 20m $(RACE_PKGS); race=$$?; \
	wait $$self; selfrc=$$?; self=; cat "$$log"; \
	[ $$race = 0 ] && [ $$selfrc = 0 ]

## lint: staticcheck, govulncheck and go mod tidy -diff, each pinned (make test runs it)
# Tools run with `go run pkg@version`: the module proxy serves them, nothing
# is installed. staticcheck's default checks, no configuration.
STATICCHECK_VERSION := v0.8.2
GOVULNCHECK_VERSION := v1.9.0
lint: staticcheck vulncheck tidy-check
# make test scans at package level (under a second: the vulnerable packages
# this module imports); make vulncheck alone traces calls (about 40 s of
# CPU). Entries marked [package scan only …] in the accepted list are
# imported but not called, so only the package scan finds them.
VULNCHECK_SCAN ?= symbol

## staticcheck: staticcheck ./... (its default checks)
staticcheck:
	$(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

## tidy-check: fail when go mod tidy would change go.mod or go.sum (prints the diff)
tidy-check:
	$(GO) mod tidy -diff

## vulncheck: govulncheck ./... against the Go vulnerability database as the module proxy serves it (golang.org/x/vulndb)
# The database's own site is out of reach here and on CI; the module proxy
# serves its source, golang.org/x/vulndb, whose data/osv holds every report
# as OSV JSON. Its own cmd/indexdb writes the v1 layout govulncheck reads
# with -db file://…, once per VULNDB_VERSION into VULNDB_DIR. Newer reports
# come with a newer pseudo-version (go list -m -versions golang.org/x/vulndb).
# govulncheck is installed beside it (go install …@version; go run would
# turn its status 3, "vulnerable code found", into 1).
# Findings in the standard library that only a newer Go toolchain fixes are
# listed in .ci/vulncheck-accepted.txt with the version that fixes them;
# any other finding fails, and so does an accepted one no longer found.
VULNDB_VERSION := v0.0.0-20261105234957-e22db6528018
VULNDB_DIR     ?= $(HOME)/.cache/rlspec-vulndb/$(VULNDB_VERSION)
vulncheck:
	@set -e; db=$(VULNDB_DIR); \
	if [ ! -f "$$db/index/db.json" ]; then \
		echo "vulncheck: building the vulnerability database golang.org/x/vulndb@$(VULNDB_VERSION) in $$db"; \
		mkdir -p "$$(dirname "$$db")"; tmp=$$(mktemp -d "$$db.tmp.XXXXXX"); \
		(cd "$$tmp" && $(GO) mod download golang.org/x/vulndb@$(VULNDB_VERSION)); \
		src=$$($(GO) env GOMODCACHE)/golang.org/x/vulndb@$(VULNDB_VERSION)/data/osv; \
		$(GO) run golang.org/x/vulndb/cmd/indexdb@$(VULNDB_VERSION) -vulns "$$src" -out "$$tmp/db"; \
		mv -T "$$tmp/db" "$$db" 2>/dev/null || [ -f "$$db/index/db.json" ]; rm -rf "$$tmp"; \
	fi; \
	out=$$(mktemp); trap 'rm -f "$$out" "$$out.found" "$$out.accepted"' EXIT; \
	bin=$$(dirname "$$db")/govulncheck@$(GOVULNCHECK_VERSION); GOBIN=$$bin $(GO) install golang.org/x/vuln/cmd/govulncheck@$(GOVULNCHECK_VERSION); \
	rc=0; "$$bin/govulncheck" -db "file://$$db" -scan $(VULNCHECK_SCAN) ./... >"$$out" 2>&1 || rc=$$?; \
	if [ $$rc != 0 ] && [ $$rc != 3 ]; then cat "$$out"; echo "vulncheck: govulncheck could not run (status $$rc)"; exit 1; fi; \
	sed -n 's/^Vulnerability #[0-9]*: \(GO-[0-9-]*\)$$/\1/p' "$$out" | sort -u >"$$out.found"; \
	accepted=.ci/vulncheck-accepted.txt; if [ "$(VULNCHECK_SCAN)" != package ]; then accepted=$$(mktemp); grep -v '\[package scan only' .ci/vulncheck-accepted.txt >"$$accepted"; fi; \
	sed -n 's/^\(GO-[0-9-]*\) .*/\1/p' "$$accepted" | sort -u >"$$out.accepted"; \
	new=$$(grep -vxF -f "$$out.accepted" "$$out.found" || true); \
	gone=$$(grep -vxF -f "$$out.found" "$$out.accepted" || true); \
	if [ -n "$$new" ]; then cat "$$out"; echo "vulncheck: found and not accepted:" $$new; exit 1; fi; \
	if [ -n "$$gone" ]; then echo "vulncheck: accepted in .ci/vulncheck-accepted.txt but no longer found (remove them):" $$gone; exit 1; fi; \
	echo "vulncheck: no vulnerability reached from this module's code beyond the $$(grep -c . "$$out.accepted" || true) accepted in .ci/vulncheck-accepted.txt ($$($(GO) env GOVERSION); database golang.org/x/vulndb@$(VULNDB_VERSION))"

## deps-postgres: Debian's PostgreSQL server for the PostgreSQL tests (apt-get when missing and root; otherwise those tests skip with one line)
deps-postgres:
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "deps-postgres: installing postgresql with apt-get"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	else echo "deps-postgres: PostgreSQL is not installed and this is not root: the PostgreSQL tests will skip (apt-get install postgresql)"; fi

# each fuzz target's budget inside make test: a number of executions, not a
# duration, so a loaded machine runs the same work instead of failing with
# "context deadline exceeded" while it still gathers the baseline coverage
TEST_FUZZTIME ?= 4000x

# how many t.Parallel tests of one package the -race tests run at once
# (go test's default is GOMAXPROCS, 2 here): most of them wait on child
# processes and windows of seconds, not on the CPU
TEST_PARALLEL ?= 4
# how many packages' -race tests run at once (go test's default is
# GOMAXPROCS): the docker, child-process and window tests wait more than
# they compute, so four overlap on two cores
TEST_PACKAGES ?= 4

## vet: go vet and gofmt
vet:
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "not gofmt-formatted:"; echo "$$out"; exit 1; fi

# The commands are built into bin/ and run from there (not with `go run`,
# which turns every non-zero status into 1): bin/rlspec and bin/loadgen
# return 0 pass, 1 fail, 2 could not run. make itself reports any failed
# recipe as status 2 and shows the tool's own status in its message
# ("Error 1"); run bin/rlspec … directly where the exact status matters.
BIN := bin
.PHONY: $(BIN)/rlspec $(BIN)/loadgen
# The revision stamp: `rlspec version` names the commit also where the go
# command cannot stamp it (a git worktree).
BIN_LDFLAGS = -X github.com/rlspec/rlspec/internal/buildinfo.revision=$(REVISION)
$(BIN)/rlspec:
	@$(GO) build -ldflags '$(BIN_LDFLAGS)' -o $@ ./cmd/rlspec
$(BIN)/loadgen:
	@$(GO) build -ldflags '$(BIN_LDFLAGS)' -o $@ ./cmd/loadgen

## acceptance: Gherkin suite against TARGET_URL / TARGET_IMAGE / TARGET_SQL (spec/004's function in TARGET_DB), or the embedded reference
# With no target named it runs the embedded reference on purpose, also
# where CI=true would refuse a run without TARGET_URL.
acceptance: $(BIN)/rlspec
	$(if $(TARGET_URL)$(TARGET_URLS)$(TARGET_IMAGE)$(TARGET_SQL),,TARGET_URL=embedded) $(BIN)/rlspec acceptance

## interop: the interop matrix: rlspec on real rate limiters (interop/; apt-get as root, the module proxy), into docs/interop.md; exit 1 on a difference from their expected.md
# Outside make test: it installs Debian packages and downloads modules. One
# target at a time, loopback only, ports from the OS (interop/run).
INTEROP_FLAGS ?=
interop: $(BIN)/rlspec
	@$(GO) build -o $(BIN)/interop ./interop/run
	$(BIN)/interop -rlspec $(BIN)/rlspec $(INTEROP_FLAGS)

## race: property-based race hunting (SEED, CHECKS, REPEAT, REPLICAS, PROFILE; FAULT, SHRINK_TIME for the embedded reference; TARGET_SQL with TARGET_DB for spec/004's function)
race: $(BIN)/rlspec
	$(BIN)/rlspec race

## load: open-loop load with thresholds (RATE, DURATION, WARMUP, CONNECTIONS, BUCKETS, THRESHOLDS, PROFILE; TARGET_SQL with TARGET_DB for spec/004's function)
load: $(BIN)/loadgen
	$(BIN)/loadgen run

## selftest: the suite and race properties against the reference (RUNS times) and every fault (CHECKS, FAULTS, PROFILE), on SQLite and then PostgreSQL (STORE=sqlite or postgres: that one only); prints each matrix
selftest: $(BIN)/rlspec deps-postgres
	@if [ -n "$$STORE" ]; then $(BIN)/rlspec selftest; exit $$?; fi; \
	dir=$${REPORT_DIR:-reports}; \
	echo "selftest on sqlite (reports in $$dir/sqlite)"; \
	STORE=sqlite REPORT_DIR=$$dir/sqlite $(BIN)/rlspec selftest || exit $$?; \
	if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		echo "selftest on postgres (reports in $$dir/postgres)"; \
		STORE=postgres REPORT_DIR=$$dir/postgres $(BIN)/rlspec selftest; \
	else echo "selftest: PostgreSQL is not installed: the matrix ran on SQLite only (apt-get install postgresql)"; fi

## image: the reference server's image rlspec-reference:latest and the harness image rlspec:latest (both FROM scratch)
image: $(BIN)/rlspec
	$(BIN)/rlspec image $(IMAGE_FLAGS)

## mocks: regenerate mockery mocks (.mockery.yaml: mock_*_test.go next to each interface)
MOCKERY = $(GO) run github.com/vektra/mockery/v2@$(MOCKERY_VERSION)
MOCK_GLOB = ':(glob)**/mock_*_test.go'
mocks:
	$(MOCKERY) --log-level=warn

## mocks-check: fail when the mocks in the tree differ from what mockery generates now
mocks-check:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	snap() { mkdir -p "$$tmp/$$1"; for f in $$(git ls-files -co --exclude-standard -- $(MOCK_GLOB)); do \
		mkdir -p "$$tmp/$$1/$$(dirname $$f)"; cp "$$f" "$$tmp/$$1/$$f"; done; }; \
	snap before; $(MOCKERY) --log-level=error; snap after; \
	if ! diff -ruN "$$tmp/before" "$$tmp/after"; then \
		echo "mocks-check: mocks were stale; regenerated them above (make mocks): review and commit"; exit 1; fi; \
	echo "mocks-check: mocks are up to date"

## fuzz: every Fuzz target in the module for FUZZTIME each (make fuzz FUZZTIME=10m for a long run)
FUZZTIME ?= 10s
fuzz:
	@set -e; for dir in $$(git grep -l '^func Fuzz' -- '*_test.go' | xargs -n1 dirname | sort -u); do \
		for f in $$(git grep -h '^func Fuzz' -- "$$dir/*_test.go" | sed 's/^func \(Fuzz[A-Za-z0-9_]*\).*/\1/'); do \
			echo "fuzz ./$$dir $$f ($(FUZZTIME))"; \
			$(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) "./$$dir"; \
		done; \
	done

## bench: every benchmark of the module
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## bench-history: the race hunter's history check, 1M requests over 1,000 keys, streamed, of every design the hunter models (BenchmarkCheck1M), 3 runs each
bench-history:
	$(GO) test -run '^$$' -bench 'Check1M' -benchtime 1x -count 3 -benchmem -timeout 60m ./racehunt/histcheck

## bench-reference: durable (synchronous=FULL) check-and-spend, 1 and 10 callers, p95
bench-reference:
	$(GO) test -run '^$$' -bench '^Benchmark(Decide|FsyncFloor)$$' -benchtime 20000x -count 3 -timeout 600s ./reference

## bench-stores: durable decisions on SQLite and PostgreSQL side by side in one run, beside pgbench (the PostgreSQL engine's ceiling)
bench-stores: deps-postgres
	$(GO) test -run '^$$' -bench '^Benchmark(Decide|Pgbench)$$' -benchtime 5000x -timeout 600s ./reference ./postgres

## bench-ceilings: each store beside its database's ceiling, paired round by round (median, min, max): one SQLite caller beside the fsync floor, every design's PostgreSQL decisions beside pgbench replaying their statements, TARGET_SQL's calls beside pgbench's pipelined calls
bench-ceilings: deps-postgres
	$(GO) test -run '^$$' -bench VsFsyncFloor -benchtime 1000x -timeout 600s ./reference
	$(GO) test -run '^$$' -bench VsPgbench -benchtime 1000x -timeout 30m ./postgres ./sqltarget

## compare: loadgen beside wrk, hey and k6 (K6=/path/to/k6; PIN, ROUNDS, SECS, RATE, PARTS: see loadgen/compare/compare.sh)
compare:
	loadgen/compare/compare.sh

## soak: 1,000 concurrent clients for 30 s against the reference binary (no 5xx, no oversell, peak RSS < 512 MiB)
soak:
	$(GO) test -run '^TestLoad$$' -count=1 -v -timeout 10m ./fakeserver -soak

## clean: remove REPORT_DIR and bin/
clean:
	rm -rf $(REPORT_DIR) $(BIN) $(DIST)

## dist: static (CGO_ENABLED=0) rlspec and loadgen for linux/darwin × amd64/arm64 in dist/, and dist/SHA256SUMS
# VERSION names the release (a semver tag, v1.2.3); the go command stamps the
# module version and revision itself in a clone, the -X stamps cover builds
# where it cannot (a git worktree, GOFLAGS=-buildvcs=false).
DIST      ?= dist
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
REVISION  ?= $(shell git rev-parse HEAD 2>/dev/null)
PLATFORMS := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64
DIST_LDFLAGS = -s -w -X github.com/rlspec/rlspec/internal/buildinfo.version=$(VERSION) -X github.com/rlspec/rlspec/internal/buildinfo.revision=$(REVISION)
dist:
	@set -e; rm -rf $(DIST); mkdir -p $(DIST); \
	for p in $(PLATFORMS); do os=$${p%/*}; arch=$${p#*/}; \
		for cmd in rlspec loadgen; do \
			echo "dist: $$cmd $$os/$$arch"; \
			CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(DIST_LDFLAGS)' -o $(DIST)/$$cmd-$$os-$$arch ./cmd/$$cmd; \
		done; \
	done; \
	cd $(DIST) && sha256sum rlspec-* loadgen-* > SHA256SUMS; cat SHA256SUMS

## dist-check: make dist, verify the sums, and run the linux/amd64 binary's acceptance against its embedded reference (exit 0)
dist-check: dist
	cd $(DIST) && sha256sum -c SHA256SUMS
	$(DIST)/rlspec-linux-amd64 version
	TARGET_URL=embedded REPORT_DIR=$$(mktemp -d) $(DIST)/rlspec-linux-amd64 acceptance >/dev/null
	@echo "dist-check: rlspec-linux-amd64 acceptance against the embedded reference exited 0"

## go-install-check: `go install github.com/rlspec/rlspec/cmd/rlspec@$(CHECK_VERSION).t<tree>` into an emptied module
## cache through a file proxy (this tree as that version + the dependencies `go mod download` fetched); its version must name it
# The module cache path is stable (emptied each run) so the build cache still
# hits for the dependencies; the version names the tree, since the go command
# indexes a module version's files once and never looks again. The tree is
# the work tree as it is (tracked and new files), written through an index of
# its own so a concurrent git command's index lock cannot get in the way.
# Folders with a go.mod of their own (interop's Go targets) are modules of
# their own, left out of the zip as the module proxy leaves them out.
# Runs sharing CHECK_DIR (two checkouts tested at once) take turns on a lock
# file beside it: one run's emptying of the cache broke the other's install.
CHECK_VERSION ?= v0.0.1-installcheck
CHECK_DIR     ?= $(HOME)/.cache/rlspec-install-check
go-install-check:
	@set -e; d=$(CHECK_DIR); m=github.com/rlspec/rlspec; \
	mkdir -p "$$(dirname "$$d")"; exec 9>"$$d.lock"; if command -v flock >/dev/null 2>&1; then flock 9; fi; \
	idx=$$(mktemp); trap 'rm -f "$$idx"' EXIT; export GIT_INDEX_FILE=$$idx; \
	git read-tree HEAD; git add -A; tree=$$(git write-tree); unset GIT_INDEX_FILE; \
	v=$(CHECK_VERSION).t$$(git rev-parse --short=12 "$$tree"); \
	if grep -q '^replace' go.mod; then echo "go-install-check: go.mod has a replace directive; go install refuses it"; exit 1; fi; \
	$(GO) mod download; dl=$$($(GO) env GOMODCACHE)/cache/download; \
	if [ -d "$$d/modcache" ]; then GOMODCACHE=$$d/modcache $(GO) clean -modcache; fi; rm -rf "$$d"; \
	p=$$d/proxy/$$m/@v; mkdir -p "$$p" "$$d/bin"; \
	nested=$$(git ls-tree -r --name-only "$$tree" | sed -n 's,^\(.*\)/go\.mod$$,:(exclude)\1,p'); \
	git archive --format=zip --prefix=$$m@$$v/ -o "$$p/$$v.zip" "$$tree" -- . $$nested; \
	cp go.mod "$$p/$$v.mod"; printf '{"Version":"%s"}\n' $$v > "$$p/$$v.info"; echo $$v > "$$p/list"; \
	GOMODCACHE=$$d/modcache GOBIN=$$d/bin GOPROXY=file://$$d/proxy,file://$$dl GOFLAGS=-mod=mod GOSUMDB=off GONOSUMDB=$$m GOTOOLCHAIN=local \
		$(GO) install $$m/cmd/rlspec@$$v; \
	out=$$($$d/bin/rlspec version); echo "$$out"; \
	case "$$out" in "rlspec $$v "*) echo "go-install-check: go install $$m/cmd/rlspec@$$v from a clean module cache works";; \
		*) echo "go-install-check: version does not name $$v"; exit 1;; esac; \
	GOMODCACHE=$$d/modcache $(GO) clean -modcache

## readme-check: run the README front page's commands as a new user would (go install through a file proxy, the release binary, the images); CI runs it after make test
readme-check:
	RLSPEC_README_CHECK=1 $(GO) test -count=1 -timeout 12m -run TestREADMEFrontPage -v ./docs

## lint-ci: actionlint on the workflows and the GitHub template (it runs shellcheck on their run: blocks), shellcheck on the action's scripts
ACTIONLINT_VERSION := v1.7.12
ACTIONLINT = $(GO) run github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)
lint-ci:
	@if ! command -v shellcheck >/dev/null; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "lint-ci: installing shellcheck (apt-get)"; \
			(apt-get install -y -qq shellcheck >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq shellcheck >/dev/null)); \
		else echo "lint-ci: shellcheck missing and not root: skipping shellcheck"; fi; \
	fi
	$(ACTIONLINT) .github/workflows/*.yml ci/github/rlspec.yml
	@if command -v shellcheck >/dev/null; then shellcheck ci/action/*.sh && echo "lint-ci: shellcheck clean"; fi

## screenshot: docs/report.png, headless Chromium's picture of report.html from a run against the reference with one fault (apt-get install chromium)
screenshot: $(BIN)/rlspec
	@set -e; if ! command -v chromium >/dev/null; then echo "screenshot: chromium not installed (apt-get install -y chromium): skipped"; exit 0; fi; \
	d=$$(mktemp -d); trap 'rm -rf "$$d"' EXIT; \
	TARGET_URL=embedded REPORT_DIR=$$d $(BIN)/rlspec acceptance -fault no-retry-after >/dev/null || [ $$? = 1 ]; \
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1650 \
		--screenshot=docs/report.png file://$$d/report.html 2>/dev/null; \
	$(GO) run ./internal/docgen/gen -root . -screenshot; \
	echo "screenshot: docs/report.png (its layout recorded in docs/report.png.digest)"
