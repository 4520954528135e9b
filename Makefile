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

.PHONY: all test acceptance race load selftest image mocks mocks-check fuzz bench bench-reference compare soak vet clean

all: test

## test: the project's own tests (what CI runs)
test: vet mocks-check
	$(GO) test -race -count=1 -timeout 9m ./...
	$(MAKE) --no-print-directory fuzz FUZZTIME=$(TEST_FUZZTIME)

# each fuzz target's budget inside make test
TEST_FUZZTIME ?= 8s

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
$(BIN)/rlspec:
	@$(GO) build -o $@ ./cmd/rlspec
$(BIN)/loadgen:
	@$(GO) build -o $@ ./cmd/loadgen

## acceptance: Gherkin suite against TARGET_URL / TARGET_IMAGE, or the embedded reference
acceptance: $(BIN)/rlspec
	$(BIN)/rlspec acceptance

## race: property-based race hunting (SEED, CHECKS, REPEAT, REPLICAS; FAULT, SHRINK_TIME for the embedded reference)
race: $(BIN)/rlspec
	$(BIN)/rlspec race

## load: open-loop load with thresholds (RATE, DURATION, WARMUP, CONNECTIONS, BUCKETS, THRESHOLDS)
load: $(BIN)/loadgen
	$(BIN)/loadgen run

## selftest: the suite and race properties against the reference (RUNS times) and every fault (CHECKS, FAULTS); prints the matrix
selftest: $(BIN)/rlspec
	$(BIN)/rlspec selftest

## image: the reference server's container image rlspec-reference:latest (FROM scratch)
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

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

## bench-reference: durable (synchronous=FULL) check-and-spend, 1 and 10 callers, p95
bench-reference:
	$(GO) test -run '^$$' -bench 'Decide|FsyncFloor' -benchtime 20000x -count 3 -timeout 600s ./reference

## compare: loadgen beside wrk, hey and k6 (K6=/path/to/k6; PIN, ROUNDS, SECS, RATE, PARTS: see loadgen/compare/compare.sh)
compare:
	loadgen/compare/compare.sh

## soak: 1,000 concurrent clients for 30 s against the reference binary (no 5xx, no oversell, peak RSS < 512 MiB)
soak:
	$(GO) test -run '^TestLoad$$' -count=1 -v -timeout 10m ./fakeserver -soak

clean:
	rm -rf $(REPORT_DIR) $(BIN)
