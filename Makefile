# polyclass — `make run` builds everything and runs the default experiment;
# `make test` runs the whole test suite.

GO      ?= go
BIN     := bin
PLUGINS := $(patsubst plugins/%/main.go,%,$(wildcard plugins/*/main.go))
TOOLS   := $(CURDIR)/.tools
# Pinned protobuf code generators (fetched from the Go module proxy).
PROTOC_GEN_GO_VERSION      := v1.36.12
PROTOC_GEN_GO_GRPC_VERSION := v1.5.1
# Pinned linter (fetched from the Go module proxy).
STATICCHECK_VERSION := v0.8.2
# Pinned protocol breaking-change checker (fetched from the Go module proxy;
# building it takes about 2 CPU-minutes).
BUF_VERSION := v1.75.0
PROTO_DIR := framework/internal/protov1
# The Python plugin SDK; its generated stubs come from Debian's protoc and
# grpc_python_plugin (protobuf-compiler, protobuf-compiler-grpc).
PY_SDK    := plugins/sklearn/polyclass_plugin
PYTHON    := /usr/bin/python3

.PHONY: all build run docs staticcheck proto-breaking tidy-check test test-all test-race test-deps python-deps test-slurm testdata vet fmt-check bench proto clean

all: build

# bench records the commit it is built from (bench version), whatever
# GOFLAGS says.
#
# The Go plugins are built static (CGO_ENABLED=0: no dynamic loader at each
# start, and a binary that runs on any Linux node of a cluster) and without
# the symbol table and DWARF (-s -w; panics and `bench run --profile`
# keep their function names): go-plugin's SecureConfig reads the whole
# binary for its SHA-256 at every start, 16 MB instead of 23 MB. Starting
# the letter grid's three plugins at once took 126-141 ms against
# 137-149 ms (medians of 5, four alternated rounds).
#
# Every Go binary is linked with its functions aligned to 64 bytes (Go's
# default is 32 on amd64): where a function starts within a cache line
# decides how its hot loops meet the processor's instruction fetch, and
# with 32 that changes from one binary to another as unrelated code moves.
# The svm plugin's dual coordinate descent (linsvm's Workspace.Fit and
# denseDot) started 32 bytes into a line in its plugin binary and at a
# line's start in cmd/peerbench, and its fits took 2.5-3 % more CPU in
# the plugin (cpu-clock samples, 4 alternated runs of the letter SVM
# grid). Aligned to 64 everywhere, the letter grid through the plugin
# processes took 0.961x the CPU of the same binaries aligned to 32, and
# the plugin tax (goal 3 of docs/performance.md) fell from 1.052 to 1.011
# (medians of 8 alternated rounds, both modes built each way). The
# binaries grow by 2 %.
LINK_ALIGN   := -funcalign=64
PLUGIN_BUILD := CGO_ENABLED=0 $(GO) build -ldflags='-s -w $(LINK_ALIGN)'

build:
	$(GO) build -buildvcs=auto -ldflags='$(LINK_ALIGN)' -o $(BIN)/bench ./cmd/bench
	@for p in $(PLUGINS); do \
		echo "$(PLUGIN_BUILD) -o $(BIN)/bench-plugin-$$p ./plugins/$$p"; \
		$(PLUGIN_BUILD) -o $(BIN)/bench-plugin-$$p ./plugins/$$p || exit 1; \
	done
	$(PYTHON) plugins/sklearn/build.py $(BIN)/bench-plugin-sklearn

run: build
	$(BIN)/bench run experiments/quickstart.hcl

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# go.mod and go.sum must be what go mod tidy makes of them.
tidy-check:
	$(GO) mod tidy -diff

vet:
	$(GO) vet ./...

# The whole suite. testsummary prints the number of tests run and fails on
# a skip that is not for an installable tool, or when fewer tests ran than
# testdata/testcount records (tests carry their own data in testdata/).
# The timeout only catches a hang: on a shared, busy machine the README
# freshness test (every shipped experiment) alone has taken over 15 minutes.
#
# Its two passes, every test and the race detector's over the packages with
# concurrency (engine, host, cmd/bench), run at once (on 2 cores: 9 min
# against 11 one after the other); each pass's output is printed whole
# when it ends, and either failing fails make test.
test: build fmt-check tidy-check vet staticcheck proto-breaking
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-all test-race

test-all:
	@bash -o pipefail -c '$(GO) test -count=1 -timeout 40m -json ./... | $(GO) run ./internal/cmd/testsummary -min-file testdata/testcount'

test-race:
	$(GO) test -race -count=1 -timeout 40m ./framework/engine/... ./framework/host/... ./cmd/bench/...

# A real Slurm job array: scripts/slurm-local starts a single-node Slurm of
# Debian's slurm-wlm and munge (installing them when missing; as root), and
# scripts/test-slurm submits the quickstart as 4 shards with bench submit
# slurm --now, then checks that the merged tables equal a single run's
# byte for byte, and that a resubmission computes only a missing cell.
test-slurm: build
	scripts/test-slurm

staticcheck:
	@test -x $(TOOLS)/staticcheck-$(STATICCHECK_VERSION) || { \
		GOBIN=$(TOOLS) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) && \
		mv $(TOOLS)/staticcheck $(TOOLS)/staticcheck-$(STATICCHECK_VERSION); }
	$(TOOLS)/staticcheck-$(STATICCHECK_VERSION) ./...

# plugin.proto must stay wire compatible with the last released protocol
# v1 (buf.yaml names the rules): a field deleted without reserving its
# number and name, or a changed type or number, fails. buf takes no
# directory inside its module as the version to compare against, so the
# released copy is compared from a temporary directory.
proto-breaking:
	@test -x $(TOOLS)/buf-$(BUF_VERSION) || { \
		GOBIN=$(TOOLS) $(GO) install github.com/bufbuild/buf/cmd/buf@$(BUF_VERSION) && \
		mv $(TOOLS)/buf $(TOOLS)/buf-$(BUF_VERSION); }
	@tmp=$$(mktemp -d) && cp $(PROTO_DIR)/released/v1/plugin.proto $$tmp/ && \
		$(TOOLS)/buf-$(BUF_VERSION) breaking --against $$tmp; \
		rc=$$?; rm -rf $$tmp; \
		if [ $$rc -eq 0 ]; then echo "proto-breaking: plugin.proto is wire-compatible with released/v1"; fi; \
		exit $$rc

# Regenerates the README's tables by running the shipped experiments (a
# test fails when the committed README differs from what this produces).
docs: build
	$(GO) run ./internal/cmd/docs -bench $(BIN)/bench README.md

# Installs the Debian tools some tests use (LIBLINEAR, pdflatex, Chromium
# for the HTML report, and the Python packages of the sklearn plugin). Tests
# that need one skip, saying so, when it is missing; CI installs them.
test-deps: python-deps
	@command -v chromium >/dev/null || { \
		apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium fonts-liberation; }
	@command -v liblinear-train >/dev/null && command -v pdflatex >/dev/null || { \
		apt-get update -qq && apt-get install -y -qq --no-install-recommends \
			liblinear-tools texlive-latex-base texlive-latex-recommended; }

# The Python packages of the sklearn plugin and of make bench's scikit-learn
# peers.
python-deps:
	@$(PYTHON) -c 'import grpc, google.protobuf, sklearn' 2>/dev/null || { \
		apt-get update -qq && apt-get install -y -qq --no-install-recommends \
			python3-grpcio python3-protobuf python3-sklearn; }

# Regenerates testdata/ (data sets, folds, scikit-learn references) from the
# shared reference directory, SHARED (default ../shared).
testdata:
	scripts/testdata.sh $(SHARED)

# Peer comparisons (scikit-learn, LIBLINEAR) and Go benchmarks; slow (the
# better part of an hour on 2 cores). cmd/peerbench writes its report to
# docs/performance.md and into the README's performance section (a test
# fails when they differ). BENCH_DATA=DIR names the data directory (default:
# experiments/data, then ../shared/data); PEERBENCH_FLAGS adds flags, e.g.
# -scaling-runs 1 (the 400k-row runs take minutes each).
BENCH_DATA ?=
PEERBENCH_FLAGS ?=
bench: build python-deps
	@command -v liblinear-train >/dev/null || { apt-get update -qq && apt-get install -y -qq liblinear-tools; }
	$(GO) test -run '^$$' -bench . -benchmem ./plugins/... ./framework/...
	$(GO) run -ldflags='$(LINK_ALIGN)' ./cmd/peerbench $(if $(BENCH_DATA),-data $(BENCH_DATA)) $(PEERBENCH_FLAGS) -o docs/performance.md -readme README.md

proto:
	@command -v protoc >/dev/null || { apt-get update -qq && apt-get install -y -qq protobuf-compiler; }
	GOBIN=$(TOOLS) $(GO) install google.golang.org/protobuf/cmd/protoc-gen-go@$(PROTOC_GEN_GO_VERSION)
	GOBIN=$(TOOLS) $(GO) install google.golang.org/grpc/cmd/protoc-gen-go-grpc@$(PROTOC_GEN_GO_GRPC_VERSION)
	PATH=$(TOOLS):$$PATH protoc --proto_path=$(PROTO_DIR) \
		--go_out=$(PROTO_DIR) --go_opt=paths=source_relative \
		--go-grpc_out=$(PROTO_DIR) --go-grpc_opt=paths=source_relative \
		$(PROTO_DIR)/plugin.proto
	@command -v grpc_python_plugin >/dev/null || { apt-get update -qq && apt-get install -y -qq protobuf-compiler-grpc; }
	protoc --proto_path=$(PROTO_DIR) --proto_path=plugins/sklearn/proto \
		--plugin=protoc-gen-grpc_python=$$(command -v grpc_python_plugin) \
		--python_out=$(PY_SDK)/_proto --grpc_python_out=$(PY_SDK)/_proto \
		plugin.proto health.proto grpc_controller.proto
	sed -i 's/^import \([a-z_]*_pb2\) as/from . import \1 as/' $(PY_SDK)/_proto/*_pb2_grpc.py

clean:
	rm -rf $(BIN) $(TOOLS)
