# palink — the targets a newcomer and CI use. `make help` lists them.
GO      ?= go
PKGS    ?= ./...
BENCHTIME ?= 1x
BENCH     ?= .
FUZZTIME  ?= 30s
FILES   ?=
JOBS    ?= 1
SCALE_JOBS ?= 10000
SCALE_INTERVAL ?= 10s

.PHONY: help build demo sim test test-short vet fmt bench failover fuzz mutate e2e scale screenshots ci clean

help: ## list targets
	@grep -E '^[a-z-]+:.*## ' Makefile | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

build: ## build ./palink
	$(GO) build -o palink .

demo: ## run palink on the embedded simulated cluster (no setup needed)
	$(GO) run . demo

sim: ## run the simulated cluster standalone on 127.0.0.1:8088
	$(GO) run . sim --addr 127.0.0.1:8088 --jobs 40 --config-out /tmp/palink-sim.yaml

vet: ## gofmt + go vet
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

# The tests that run palink as processes (cli's TestFailover) take the binary
# `make build` made, rather than building their own.
test: vet build ## the whole test suite, with the race detector (what CI runs)
	PALINK_BIN=$(CURDIR)/palink $(GO) test -race -count=1 -timeout 20m $(PKGS)

test-short: ## quick tests without the race detector
	$(GO) test -short -count=1 $(PKGS)

bench: ## benchmarks (figures go to BENCHMARKS.md; BENCH=Debug PKGS=./join/debug to narrow)
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchmem -benchtime $(BENCHTIME) $(PKGS)

failover: build ## 20 SIGKILLs and SIGSTOPs of the leader of 3 agents on a 3-member etcd (CI runs it; needs etcd)
	PALINK_BIN=$(CURDIR)/palink PALINK_FAILOVER_ROUNDS=20 $(GO) test -count=1 -timeout 10m -run '^TestFailover$$' -v ./cli

fuzz: ## run every fuzz target for FUZZTIME each
	@for pkg in $$($(GO) list $(PKGS)); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

mutate: ## mutation testing of mutate.conf's files (FILES="a.go b.go" to narrow, JOBS=2); slow, not in CI: see TESTING.md
	$(GO) run ./internal/mutate -j $(JOBS) -files "$(FILES)" $(MUTATE_FLAGS)

e2e: ## drive `palink demo` in tmux: filter, open, pause, restart, kill (needs tmux)
	bash tui/e2e/e2e.sh

scale: build ## palink at fleet size: `palink sim` with SCALE_JOBS (10000) running apps, an agent, adopt --all, checks and figures
	$(GO) run ./internal/scalecheck -bin ./palink -jobs $(SCALE_JOBS) -interval $(SCALE_INTERVAL) $(SCALE_FLAGS)

screenshots: ## render the main views of `palink demo` to screenshots/ (SCREENSHOT_PNG=1 for PNG)
	bash tui/e2e/screenshots.sh

ci: ## what .ci/run calls after starting services
	$(MAKE) test

clean:
	rm -f palink
