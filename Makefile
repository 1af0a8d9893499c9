# toolout: every target needs only Go; tools come from go.mod's tool directives.
GO        ?= go
BENCHTIME ?= 1s
BENCHCOUNT ?= 1
FUZZTIME  ?= 30s
# LINEARTIME is the -benchtime of each size pair in bench-linear: a time, so that a case that takes
# a fraction of a millisecond runs hundreds of times (three runs of it varied 8x to 14x) and a slow
# 10 MiB case runs once
LINEARTIME ?= 100ms
# LINEARCOUNT runs of each; bench-linear compares their medians
LINEARCOUNT ?= 3
# LINEARBENCH: the -bench pattern of bench-linear, run in every package with a benchmark it names
LINEARBENCH ?= Adversarial|Leaked|ChunkPlan|ChunkCount
# LINEARPKGS lists those packages: each directory with a `func BenchmarkX` whose name holds a word
# of LINEARBENCH
LINEARPKGS = grep -rlE --include='*_test.go' '^func Benchmark[A-Za-z0-9_]*($(LINEARBENCH))' . | xargs -n1 dirname | sort -u
# LINEARAGAIN rounds in which each pair that read over the limit is measured again alone, each
# size in a process of its own, once a round (so a pair's runs lie a while apart): on a shared
# machine a neighbour's burst during one 10 MiB case reads as 15x, and a size run after the other
# in one process read 12.5x where each alone read 9.4x; a pair fails only when it is over again
LINEARAGAIN ?= 5
# RATIOSCOUNT rounds of bench-ratios, each running every benchmark it needs once; figures are
# medians over the rounds, a ratio the median of its rounds' ratios (five: with three, one
# disturbed round could carry a figure near its goal over it on this shared machine)
RATIOSCOUNT ?= 5
# RATIOSTIME is the -benchtime of each benchmark in a round of bench-ratios
RATIOSTIME ?= 200ms
# FUZZMINTIME bounds the minimization of each new input, so a run spends its time fuzzing
FUZZMINTIME ?= 5s
# AGENT_DIR: the real-agent check (make agent-check); its node_modules is git-ignored
AGENT_DIR ?= scripts/agent-check


.PHONY: test fmt-check vet deps golden import-mem bench bench-linear bench-ratios bench-gateway bench-check bench-baseline parser-corpus fuzz agent-check docs-check help

REPORTS   ?= reports
# FIRST: the slowest test packages, started first so that the two-core tail is short (order only:
# ./... still runs every package once)
FIRST     ?= ./core/tokens ./harness/importer ./cmd/toolout ./harness ./core/gateway/proxy ./harness/serve ./toolouttest ./core/schema ./core/fstools ./core/leaked ./core/chunk ./core/gateway/openai
# NODEBUG: make test compiles every package without DWARF debug information (-dwarf=false; go test
# and go run already link their binaries without it): the cold race build of every package costs a
# sixth less (128 s -> 111 s on 2 cores); stack traces, panics and race reports keep their
# file:line. Every step of make test uses the same flags, so go vet reuses the race pass's
# build. Empty it to debug a test binary with a debugger.
NODEBUG   ?= -gcflags=all=-dwarf=false
# HEARTBEAT: after this many seconds without output, make test prints a STATUS line naming the
# packages running and how many are left to start (internal/testreport), and one every HEARTBEAT
# seconds while go vet runs (docs/ci.md tells a slow build from a hang by them); 0: never
HEARTBEAT ?= 30
# REPORT pipes a go test -json stream into the console, JUnit and JSON reports (internal/testreport).
# make test builds it before go test starts: built beside go test's race build, it started 3 min
# late at a load of 30, and its STATUS lines with it. It is built with -race, as the tests are, so
# that the standard packages it needs are compiled once for both (without it, a cold build spent
# 12 s of CPU compiling them a second time, 7 s of them before any test could start)
REPORT     = $(GO) run -race $(NODEBUG) ./internal/testreport

## test: gofmt check, then every test with the race detector (the dependency rule among them:
## internal/depcheck, which make deps runs alone), then go vet
## (its full set of checks on every package and its tests, on the race build the tests just
## compiled); both run even when one fails. The console: a line per package as it ends, each
## failing test with its output, a STATUS line after $(HEARTBEAT) s without output (the packages
## running, with the test each started last, and how many are left to start), the skipped tests and
## Ginkgo specs grouped by reason, then DONE (docs/ci.md). Reports go to $(REPORTS)/: go-test.xml (JUnit, one
## case per Go test), junit/<suite>.xml (JUnit, one case per Ginkgo spec, so one per scenario) and
## go-test.json (go test -json, with each package's and test's time). go vet runs after the tests
## rather than inside them (go test -vet=all) because go test vets each test variant on its own:
## 51 s against 22 s on a cold cache. One pass only: core/tokens' differentials against
## tiktoken-go run under race too, the two largest with a quarter of their trials (a pass without
## race compiled net/http and crypto/tls a second time for tiktoken-go: cold make test 172 s with
## it, 150 s without)
test: fmt-check
	@rm -rf $(REPORTS) && mkdir -p $(REPORTS)/junit
	@echo "go build ./internal/testreport" && $(GO) build -race $(NODEBUG) -o /dev/null ./internal/testreport
	@status=0; \
	echo "go test -race -count=1 $(FIRST) ./..."; \
	{ TOOLOUT_JUNIT_DIR=$(abspath $(REPORTS))/junit GORACE=atexit_sleep_ms=0 \
		$(GO) test -json -race -vet=off $(NODEBUG) -count=1 $(FIRST) ./... 2>&1; echo $$? > $(REPORTS)/.status; } \
		| $(REPORT) --junit $(REPORTS)/go-test.xml --json $(REPORTS)/go-test.json \
			--go $(GO) --list "$(FIRST) ./..." --specs $(REPORTS)/junit --heartbeat $(HEARTBEAT)s || status=1; \
	[ "$$(cat $(REPORTS)/.status)" = 0 ] || status=1; \
	echo "go vet ./..."; beat=; \
	if [ "$(HEARTBEAT)" != 0 ]; then \
		{ n=0; while sleep $(HEARTBEAT) >/dev/null 2>&1; do n=$$((n + $(HEARTBEAT))); echo "STATUS $${n}s: go vet ./... running"; done; } & beat=$$!; \
	fi; \
	$(GO) vet -race $(NODEBUG) ./... || status=1; \
	[ -z "$$beat" ] || kill $$beat; \
	rm -f $(REPORTS)/.status; \
	exit $$status

## fmt-check: fail when a Go file is not gofmt-formatted
fmt-check:
	@bad=$$(gofmt -l $$(find . -name '*.go' -not -path './.git/*')); \
	if [ -n "$$bad" ]; then echo "not gofmt-formatted (run gofmt -w):"; echo "$$bad"; exit 1; fi

## vet: go vet ./...
vet:
	$(GO) vet ./...

## deps: fail when a package under core depends on the harness, fakes, cmd or a test framework (the rule and
## its test: internal/depcheck; built with -race so that make test's race pass reuses the build)
deps:
	@$(GO) test -race -count=1 $(NODEBUG) ./internal/depcheck && echo "deps: core is free of harness, fakes, cmd and test frameworks"

## golden: rewrite the golden files of the bundled scenarios (review the diff before committing)
golden:
	UPDATE_GOLDEN=1 $(GO) run ./cmd/toolout test scenarios

## import-mem: measure the peak RSS of toolout import (a child process each under /usr/bin/time -f %M, what
## /usr/bin/time -v prints) on the synthetic traces of internal/tracegen, every format and shape at
## IMPORTMEM_SIZES MiB, and print docs/benchmarks.md's "Import peak memory" table; fails when one is over
## 10 times its input plus 64 MB (bench/importmem; 1, 10 and 100 MiB took about 30 min on 2 shared cores,
## most of it at 100 MiB)
IMPORTMEM_SIZES ?= 1,10,100
import-mem:
	$(GO) run ./bench/importmem -sizes $(IMPORTMEM_SIZES)

## bench: run the Go benchmarks; the output is benchstat-ready (BENCHCOUNT=10 for comparisons)
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) -count $(BENCHCOUNT) ./bench/...

## bench-linear: run the adversarial size pairs of every parser, in whatever package they live:
## each benchmark whose name holds a word of LINEARBENCH (BenchmarkXAdversarial, with its
## BenchmarkXAdversarialBaseline; the leaked scanner's and the chunk planner's), in each package
## that declares one (found by grep, so a new parser's BenchmarkYAdversarial is picked up), and
## fail when size=10MiB costs more than 12 times size=1MiB (96KiB/960KiB for the scenario and
## gateway config loaders, whose files stop at 1 MiB), or, for a pair with a same-run baseline
## (schema: encoding/json building the same tree), more than 1.15 times the baseline's ratio; a
## pair over the limit is measured again alone, each size in a process of its own, once in each
## of LINEARAGAIN rounds (from one test binary per package, built once), and fails only when it is
## over again; run it on a quiet machine (bench/linear.awk says why). The packages are compiled first,
## in parallel; then each runs alone (-p 1), so that no compilation shares the CPU with a
## measurement. GC runs only past 4 GiB (GOGC=off GOMEMLIMIT=4GiB, the heap faulted in first:
## internal/hostile.WarmHeap), so a 1 MiB case whose small heap escapes the collections its 10 MiB
## pair pays does not read as super-linear; B/op shows allocation. The last run: 204 pairs in 10
## packages (every parser's: docs/benchmarks.md, "Linear on hostile input", lists them), 7 to 10 min on 2 cores
bench-linear:
	@mkdir -p $(REPORTS)
	@pkgs=$$($(LINEARPKGS)); \
	echo "bench-linear: -bench '$(LINEARBENCH)' in" $$pkgs; \
	$(GO) test -vet=off -count=1 -run '^$$' $$pkgs > /dev/null || exit 1; \
	GOGC=off GOMEMLIMIT=4GiB $(GO) test -p 1 -vet=off -run '^$$' -bench '$(LINEARBENCH)' -benchtime $(LINEARTIME) -count $(LINEARCOUNT) -benchmem $$pkgs > $(REPORTS)/bench-linear.txt \
		|| { cat $(REPORTS)/bench-linear.txt; exit 1; }
	@awk -f bench/linear.awk $(REPORTS)/bench-linear.txt > $(REPORTS)/bench-linear-ratios.txt; \
	status=$$?; cat $(REPORTS)/bench-linear-ratios.txt; [ $$status -eq 0 ] && exit 0; \
	echo "bench-linear: measuring each pair over the limit again, alone, $(LINEARAGAIN) rounds"; \
	awk -v AGAIN=1 -f bench/linear.awk $(REPORTS)/bench-linear.txt > $(REPORTS)/bench-linear-over.txt; \
	bin=$(abspath $(REPORTS))/bench-linear-bin; mkdir -p $$bin; \
	for pkg in $$(cut -f1 $(REPORTS)/bench-linear-over.txt | sort -u); do \
		$(GO) test -c -vet=off -o $$bin/$$(echo $$pkg | tr / _).test ./$$pkg || exit 1; \
	done; \
	for round in $$(seq $(LINEARAGAIN)); do \
		while IFS='	' read -r pkg pat; do \
			(cd ./$$pkg && GOGC=off GOMEMLIMIT=4GiB $$bin/$$(echo $$pkg | tr / _).test -test.run '^$$' -test.bench "$$pat" \
				-test.benchtime $(LINEARTIME) -test.count 1 -test.benchmem < /dev/null) || exit 1; \
		done < $(REPORTS)/bench-linear-over.txt; \
	done > $(REPORTS)/bench-linear-again.txt || { cat $(REPORTS)/bench-linear-again.txt; exit 1; }; \
	awk -f bench/linear.awk $(REPORTS)/bench-linear-again.txt

## bench-ratios: run the benchmarks of the table of performance goals (bench/ratios/goals.go), RATIOSCOUNT
## rounds of RATIOSTIME each, and print one line per figure (the median over the rounds): figure,
## goal, OK or OVER; fails when one is outside its goal. Ratio goals divide by a baseline measured
## in the same round (json.Unmarshal, IndexByte + json.Unmarshal), or are timed in pairs by their
## benchmark (chunk planning / counting, code / prose, tiktoken-go / ours, whose ids must be
## identical), and take the median of the rounds' ratios; speed goals are absolute on this
## machine. Raw output, benchstat-ready: $(REPORTS)/bench-ratios.txt. The 100 MiB chunk
## case is left out. It runs bench/gatewayfloor first (make bench-gateway's measurement, 1 to 3 min)
## and checks the gateway's goals on that output with the rest, so every figure is of this run
## (a few minutes on 2 cores in all)
bench-ratios:
	@mkdir -p $(REPORTS)
	@$(GO) run ./bench/gatewayfloor $(GATEWAYFLAGS) -out $(REPORTS)/bench-gateway.txt > /dev/null
	@$(GO) run ./bench/ratios -count $(RATIOSCOUNT) -benchtime $(RATIOSTIME) -out $(REPORTS)/bench-ratios.txt \
		-gateway $(REPORTS)/bench-gateway.txt

# GATEWAYFLAGS: flags of bench/gatewayfloor (go run ./bench/gatewayfloor -h), e.g. -reps 5 or
# -toolout PATH to measure a binary built elsewhere
GATEWAYFLAGS ?=

## bench-gateway: toolout gateway serve against the floor, a plain httputil.ReverseProxy doing no
## work, in one run (bench/gatewayfloor): a fake OpenAI upstream in the program, the gateway (built
## from ./cmd/toolout, memory store at its 256 MiB cap) and the floor as child processes, each
## figure measured on both, interleaved, in 3 repetitions: throughput at 32 clients, added latency
## p50, CPU per request (/proc/PID/stat) of a new and of a repeated 200 KB tool result, streaming
## time to first byte; then peak RSS (VmHWM) over 1,500 new results. Raw figures, Go benchmark
## lines: $(REPORTS)/bench-gateway.txt; then bench/ratios checks them against the gateway's goals
## (fails when one is outside). About 1 to 3 min on 2 cores; GATEWAYFLAGS sets sizes and durations
bench-gateway:
	@mkdir -p $(REPORTS)
	@$(GO) run ./bench/gatewayfloor $(GATEWAYFLAGS) -out $(REPORTS)/bench-gateway.txt
	@$(GO) run ./bench/ratios -only-gateway -gateway $(REPORTS)/bench-gateway.txt

## bench-check: compare the strategies on the bundled corpus with the committed baseline; fails when
## a recall drops or total tokens grow by more than 10%
bench-check:
	$(GO) run ./cmd/toolout bench strategies --baseline bench/baseline.json --svg bench/strategies.svg

## parser-corpus: measure core/leaked on the Dynamo/vLLM/SGLang parser-parity corpus vendored in
## bench/testdata/parsercorpus and print, per family and in total, the cases where two of the three
## peers agree and toolout returns the same calls, Dynamo's calls toolout recovers, and the families
## where toolout finds no call, then every agreed case toolout misses. A measurement, not a gate: it
## fails only when the corpus cannot be read (make test runs the same test, 0.2 s, without printing)
parser-corpus:
	$(GO) test -count=1 -run 'TestParserCorpus$$' -v ./bench

## bench-baseline: accept the current strategy results as the baseline (review the diff first)
bench-baseline:
	$(GO) run ./cmd/toolout bench strategies --write-baseline bench/baseline.json --svg bench/strategies.svg

## fuzz: run every fuzz target in the module (each `func FuzzX` in a _test.go file) for FUZZTIME
## (default 30s) one after another (.ci/fuzz); a crasher lands in its package's testdata/fuzz/FuzzX and fails
fuzz:
	@GO=$(GO) FUZZTIME=$(FUZZTIME) FUZZMINTIME=$(FUZZMINTIME) bash .ci/fuzz

## agent-check: real agents against toolout serve, directly and through toolout gateway serve
## (scripts/agent-check/README.md): Claude Code, Codex CLI, the OpenAI Agents SDK and the Vercel AI
## SDK on bundled scenarios, and what Claude Code and Codex recorded imported and run. Needs node 20 or later;
## installs the packages package-lock.json pins into scripts/agent-check/node_modules (git-ignored)
## with npm ci when they are missing or the lock changed (the network needed), builds toolout into
## a temp dir, and runs scripts/agent-check/check.mjs (AGENT_TIMEOUT, RUN, VERBOSE, STRICT: see there)
agent-check: $(AGENT_DIR)/node_modules/.package-lock.json
	@bin=$$(mktemp -d) && trap 'rm -rf "$$bin"' EXIT && \
	$(GO) build -o $$bin/toolout ./cmd/toolout && \
	TOOLOUT=$$bin/toolout node $(AGENT_DIR)/check.mjs

# npm ci writes node_modules/.package-lock.json: a lock newer than it installs again
$(AGENT_DIR)/node_modules/.package-lock.json: $(AGENT_DIR)/package-lock.json
	@command -v node >/dev/null 2>&1 || { echo "agent-check: node is not on PATH (node 20 or later)"; exit 2; }
	npm ci --prefix $(AGENT_DIR) --no-audit --no-fund

## docs-check: run every shell block of docs/*.md as shown (make test runs the README's): each page
## in a scratch copy of the repository, its transcripts in one shell, so that the servers a page starts
## (on the ports it shows: 8787, 9000, ...) answer its later blocks; the free ports and durations a
## command prints are masked. A page that calls curl, jq, redis-server, node, claude or codex is
## skipped when that program is missing. About 2 minutes on 2 cores
docs-check:
	TOOLOUT_DOCS_CHECK=1 $(GO) test -count=1 -timeout 20m ./cmd/toolout -run TestToolout -args -ginkgo.focus='docs/ pages' -ginkgo.v

## help: list the targets
help:
	@grep -E '^## ' Makefile | sed 's/^## /  /'
