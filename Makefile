# polyclass — `make run` builds everything and runs the default experiment;
# `make test` runs the whole test suite. README.md says what a machine needs.
#
#   make deps        download the Go modules (the one step that needs the network)
#   make build       bench and the plugins into bin/
#   make run         build, then run experiments/quickstart.hcl into results/
#   make test        the whole test suite (offline once make deps has run)
#   make test-deps   install the Debian packages the tests use (through sudo unless root)
#   make lint        gofmt, vet, staticcheck, tidy, buf breaking, generated code, complexity, length
#   make docs        regenerate the tables the docs quote; make docs-check checks them
#   make test-slurm  the quickstart as a Slurm job array on a local Slurm (as root)
#   make bench       timings against LIBLINEAR and scikit-learn into docs/performance.md
#   make hsu-lin-data dna, vowel and shuttle of experiments/hsu_lin.hcl from Debian's R mlbench
#   make repro-check one commit builds to the same bin/ twice and in two fresh clones

GO      ?= go
BIN     := bin
PLUGINS := $(patsubst plugins/%/main.go,%,$(wildcard plugins/*/main.go))
PROTO_DIR := framework/internal/protov1
# The Python plugin SDK; its generated stubs come from Debian's protoc and
# grpc_python_plugin (protobuf-compiler, protobuf-compiler-grpc).
PY_SDK    := plugins/sklearn/polyclass_plugin
PYTHON    := /usr/bin/python3
# The modules of their own: the benchmark harness, and the tools module
# pinning buf and gocyclo (buf's dependencies would otherwise raise the project's own:
# buf v1.75.0 requires a newer protobuf than the generated code's).
PEERBENCH := tools/peerbench
TOOLS_MOD := tools/go.mod
# Documents whose tables are generated from the shipped experiments.
DOCS      := README.md $(wildcard docs/*.md)
# apt-get installs as root: through sudo when make runs as another user,
# directly as root (a root container has no sudo). USER_ID=0 or SUDO=
# overrides the choice.
USER_ID   ?= $(shell id -u)
SUDO      ?= $(if $(filter 0,$(USER_ID)),,sudo)
APT       := $(SUDO) apt-get

.PHONY: all deps build run test test-all test-race test-tools test-noasm test-deps python-deps \
	lint fmt-check vet staticcheck tidy-check proto-breaking proto-check proto-gen asm-check \
	docs docs-check test-slurm testdata hsu-lin-data bench proto clean repro-check screenshots

all: build

# Everything the build, the tests and the linters read from the module
# proxy: the project's modules (its go.mod pins staticcheck and the
# protobuf code generators with tool directives), the benchmark module's
# and the tools module's, and what go mod tidy reads besides (the modules
# of the dependencies' own tests), fetched by go mod tidy -diff, which
# writes nothing. After this, every target but test-deps, python-deps and
# test-slurm (Debian packages) runs offline; make test needs only the
# first line.
deps:
	$(GO) mod download
	cd $(PEERBENCH) && $(GO) mod download
	$(GO) mod download -modfile=$(TOOLS_MOD)
	$(GO) mod tidy -diff >/dev/null
	cd $(PEERBENCH) && $(GO) mod tidy -diff >/dev/null
	cd tools && $(GO) mod tidy -diff >/dev/null

# bench records the commit it is built from (bench version), whatever
# GOFLAGS says.
#
# The build is reproducible: one commit gives the same bin/, byte for
# byte, in any clone and at any time (make repro-check). -trimpath keeps
# the clone's directory out of the binaries, and build.py dates the
# scikit-learn zip's entries 1980-01-01. A plugin's SHA-256 is part of
# the identity of every cell it computes (docs/results.md): a rebuild
# must not make a resumed run compute them again.
#
# The Go plugins are built static (CGO_ENABLED=0: no dynamic loader at each
# start, and a binary that runs on any Linux node of a cluster) and without
# the symbol table and DWARF (-s -w; panics and `bench run --profile`
# keep their function names): go-plugin's SecureConfig reads the whole
# binary for its SHA-256 at every start, 16 MB instead of 23 MB. Starting
# the letter grid's three plugins at once took 126-141 ms against
# 137-149 ms (medians of 5, four alternated rounds).
PLUGIN_BUILD := CGO_ENABLED=0 $(GO) build -trimpath -ldflags='-s -w'

# bench itself is built without cgo too: with cgo its threads are
# glibc's, each reserving an 8 MiB stack of address space, and under an
# address-space limit (ulimit -v, Slurm's VSizeFactor) a run starting 5
# plugins aborted with "runtime/cgo: pthread_create failed" at 1.5 GB,
# where the pure Go build runs.
build:
	CGO_ENABLED=0 $(GO) build -trimpath -buildvcs=auto -o $(BIN)/bench ./cmd/bench
	@for p in $(PLUGINS); do \
		echo "$(PLUGIN_BUILD) -o $(BIN)/bench-plugin-$$p ./plugins/$$p"; \
		$(PLUGIN_BUILD) -o $(BIN)/bench-plugin-$$p ./plugins/$$p || exit 1; \
	done
	$(PYTHON) plugins/sklearn/build.py $(BIN)/bench-plugin-sklearn

run: build
	$(BIN)/bench run experiments/quickstart.hcl

# The whole suite: every test of the project and of the benchmark module,
# the race detector's pass over the packages with concurrency (engine, the reducers plugin,
# host, cmd/bench) and the assembly kernels' Go paths (test-noasm), at once
# (2 jobs); each pass's output is printed whole
# when it ends, and any failing fails make test. testsummary prints the
# number of tests run and fails on a skip that is not for an installable
# tool, or when fewer tests ran than testdata/testcount records (tests carry
# their own data in testdata/). The timeout only catches a hang; testsummary
# then names the tests that were running, with their goroutines, after the
# totals, where the end of a CI log shows them.
test:
	@$(MAKE) --no-print-directory -j2 --output-sync=target test-all test-race test-tools test-noasm

test-all:
	@bash -o pipefail -c '$(GO) test -count=1 -timeout 40m -json ./... | $(GO) run ./internal/cmd/testsummary -min-file testdata/testcount'

test-race:
	@bash -o pipefail -c '$(GO) test -race -count=1 -timeout 40m -json ./framework/engine/... ./framework/host/... ./plugins/reducers/... ./cmd/bench/... | $(GO) run ./internal/cmd/testsummary'

# The pure Go paths of the assembly kernels: the noasm build tag leaves the
# assembly out (as gonum's does), and the packages that have some are
# tested again with their Go kernels (-short: a few seconds).
ASM_PKGS := $(sort $(dir $(shell git ls-files '*.s' 2>/dev/null)))
test-noasm:
	$(GO) test -tags noasm -short -count=1 $(addprefix ./,$(ASM_PKGS))

# The benchmark module builds against the project's public packages: its
# tests keep it building as they change.
test-tools:
	@bash -o pipefail -c '(cd $(PEERBENCH) && $(GO) test -count=1 -timeout 10m -json ./...) | $(GO) run ./internal/cmd/testsummary'


# Static checks, apart from the tests: formatting, vet and staticcheck of
# both modules, go.mod files tidy, the protocol wire-compatible with its
# last release, the generated code equal to what its generators make, and
# no function above cyclomatic complexity 25 outside .gocyclo-allow nor
# longer than 80 lines outside .funclen-allow.
lint: fmt-check vet staticcheck tidy-check proto-breaking proto-check asm-check cyclo funclen

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	cd $(PEERBENCH) && $(GO) vet ./...

# staticcheck is pinned in go.mod (tool directive) and built from the
# module cache.
staticcheck:
	$(GO) tool staticcheck ./...
	cd $(PEERBENCH) && $$(cd $(CURDIR) && $(GO) tool -n staticcheck) ./...

# Every go.mod and go.sum must be what go mod tidy makes of them.
tidy-check:
	$(GO) mod tidy -diff
	cd $(PEERBENCH) && $(GO) mod tidy -diff
	cd tools && $(GO) mod tidy -diff

# plugin.proto must stay wire compatible with the last released protocol
# v1 (buf.yaml names the rules): a field deleted without reserving its
# number and name, or a changed type or number, fails. buf takes no
# directory inside its module as the version to compare against, so the
# released copy is compared from a temporary directory. buf is pinned in
# tools/go.mod and built from the module cache (the first build takes
# about 2 CPU-minutes).
proto-breaking:
	@tmp=$$(mktemp -d) && cp $(PROTO_DIR)/released/v1/plugin.proto $$tmp/ && \
		$(GO) tool -modfile=$(TOOLS_MOD) buf breaking --against $$tmp; \
		rc=$$?; rm -rf $$tmp; \
		if [ $$rc -eq 0 ]; then echo "proto-breaking: plugin.proto is wire-compatible with released/v1"; fi; \
		exit $$rc

# The committed Go and Python code of the protocol must be what make proto
# generates: it is generated into a temporary directory and compared.
proto-check:
	@tmp=$$(mktemp -d) && mkdir -p $$tmp/go $$tmp/py && \
		$(MAKE) --no-print-directory proto-gen GO_OUT=$$tmp/go PY_OUT=$$tmp/py >/dev/null && \
		cp $(PY_SDK)/_proto/__init__.py $$tmp/py/ && \
		diff -r $$tmp/go $(PROTO_DIR) -x released -x '*.proto' && diff -r $$tmp/py $(PY_SDK)/_proto -x __pycache__; \
		rc=$$?; rm -rf $$tmp; \
		if [ $$rc -eq 0 ]; then echo "proto-check: the generated code is up to date"; else echo "proto-check: run make proto"; fi; \
		exit $$rc

# The generated assembly (a //go:generate python3 GEN.py OUT.s line beside
# it) must be what its generator writes: each is regenerated into a
# temporary directory and compared (scripts/asm-check).
asm-check:
	PYTHON=$(PYTHON) scripts/asm-check

# No function (tests and generated code aside) above cyclomatic complexity
# 25, as gocyclo counts it, unless .gocyclo-allow names it, a numeric
# kernel, with its reason (scripts/cyclo). gocyclo is pinned in
# tools/go.mod.
cyclo:
	GO=$(GO) scripts/cyclo

# No function (tests and generated code aside) longer than 80 lines unless
# .funclen-allow names it with its reason (internal/funclen; its test runs
# in make test too).
funclen:
	$(GO) test -count=1 -run TestNoLongFunctionOutsideAllowList ./internal/funclen

# Regenerates the protocol's Go code (protoc-gen-go and protoc-gen-go-grpc,
# pinned in go.mod) and the Python SDK's stubs.
proto:
	@$(MAKE) --no-print-directory proto-gen GO_OUT=$(PROTO_DIR) PY_OUT=$(PY_SDK)/_proto

GO_OUT ?= $(PROTO_DIR)
PY_OUT ?= $(PY_SDK)/_proto
proto-gen:
	@command -v protoc >/dev/null || { $(APT) update -qq && $(APT) install -y -qq protobuf-compiler; }
	@command -v grpc_python_plugin >/dev/null || { $(APT) update -qq && $(APT) install -y -qq protobuf-compiler-grpc; }
	protoc --proto_path=$(PROTO_DIR) \
		--plugin=protoc-gen-go=$$($(GO) tool -n protoc-gen-go) \
		--plugin=protoc-gen-go-grpc=$$($(GO) tool -n protoc-gen-go-grpc) \
		--go_out=$(GO_OUT) --go_opt=paths=source_relative \
		--go-grpc_out=$(GO_OUT) --go-grpc_opt=paths=source_relative \
		$(PROTO_DIR)/plugin.proto
	protoc --proto_path=$(PROTO_DIR) --proto_path=plugins/sklearn/proto \
		--plugin=protoc-gen-grpc_python=$$(command -v grpc_python_plugin) \
		--python_out=$(PY_OUT) --grpc_python_out=$(PY_OUT) \
		plugin.proto health.proto grpc_controller.proto
	sed -i 's/^import \([a-z_]*_pb2\) as/from . import \1 as/' $(PY_OUT)/*_pb2_grpc.py

# Regenerates the tables the documents quote by running the shipped
# experiments; docs-check fails when a committed table differs from what
# the code produces now (it runs every shipped experiment: minutes).
docs: build
	$(GO) run ./internal/cmd/docs -bench $(BIN)/bench $(DOCS)

docs-check: build
	$(GO) run ./internal/cmd/docs -check -bench $(BIN)/bench $(DOCS)

# Installs the Debian packages the tests use: LIBLINEAR, LIBSVM (the
# scripts that regenerate the kernel SVM's references and make bench's
# peer), pdflatex, Chromium for the HTML report, cvxopt (the general QP
# solver of scripts/cs_qp_reference.py, which writes the all-together
# SVMs' references) and the Python packages of the sklearn plugin. A
# test that needs one skips when it is missing, naming the package, and
# make test says so.
test-deps: python-deps
	@command -v chromium >/dev/null || { \
		$(APT) update -qq && $(APT) install -y -qq --no-install-recommends chromium fonts-liberation; }
	@command -v liblinear-train >/dev/null && command -v svm-train >/dev/null && command -v pdflatex >/dev/null || { \
		$(APT) update -qq && $(APT) install -y -qq --no-install-recommends \
			liblinear-tools libsvm-tools texlive-latex-base texlive-latex-recommended; }
	@$(PYTHON) -c 'import cvxopt' 2>/dev/null || { \
		$(APT) update -qq && $(APT) install -y -qq --no-install-recommends python3-cvxopt; }

# The Python packages of the sklearn plugin and of make bench's scikit-learn
# peers; venv, pip and wheel to pip-install the plugin kit into a venv
# offline, and the estimator libraries its tests bridge (XGBoost,
# imbalanced-learn).
python-deps:
	@$(PYTHON) -c 'import grpc, google.protobuf, sklearn, ensurepip, pip, wheel, xgboost, imblearn' 2>/dev/null || { \
		$(APT) update -qq && $(APT) install -y -qq --no-install-recommends \
			python3-grpcio python3-protobuf python3-sklearn python3-venv python3-pip python3-wheel \
			python3-xgboost python3-imblearn; }

# A real Slurm job array: scripts/slurm-local starts a single-node Slurm of
# Debian's slurm-wlm and munge (installing them when missing; as root), and
# scripts/test-slurm submits the quickstart as 4 shards with bench submit
# slurm --now, then checks that the merged tables equal a single run's
# byte for byte, and that a resubmission computes only a missing cell.
test-slurm: build
	scripts/test-slurm

# Screenshots of the HTML report at 1,400 px wide, for docs/reports.md:
# the interactive test drives the report of a small run in headless
# Chromium (make test-deps installs it) and writes docs/report_*.png.
screenshots:
	$(GO) test ./cmd/bench -run '^TestInteractiveReport$$' -count=1 -screenshots $(CURDIR)/docs

# Regenerates testdata/ (data sets, folds, scikit-learn references) from the
# shared reference directory, SHARED (default ../shared).
testdata:
	scripts/testdata.sh $(SHARED)

# dna, vowel and shuttle of experiments/hsu_lin.hcl, split into their
# standard training and test rows, from the R data files of Debian's
# r-cran-mlbench, read without R by python3-rdata (both installed when
# missing, through sudo unless make runs as root, as in make test-deps).
# scripts/hsu_lin_mlbench.py checks them against the package's
# documentation and writes the same bytes on every run.
hsu-lin-data:
	@test -f /usr/lib/R/site-library/mlbench/data/DNA.rda && $(PYTHON) -c 'import rdata' 2>/dev/null || { \
		$(APT) update -qq && $(APT) install -y -qq --no-install-recommends r-cran-mlbench python3-rdata; }
	$(PYTHON) scripts/hsu_lin_mlbench.py

# Peer comparisons (scikit-learn, LIBLINEAR) and Go benchmarks; slow (the
# better part of an hour on 2 cores). tools/peerbench, a module of its own,
# writes its report to docs/performance.md. BENCH_DATA=DIR names the data
# directory (default: experiments/data, then ../shared/data);
# PEERBENCH_FLAGS adds flags, e.g. -only plugintax or -scaling-runs 1 (the
# 400k-row runs take minutes each), or -tuning-rows, -cores-rows and
# -together-rows N for a quick check of those sections on fewer rows.
BENCH_DATA ?=
PEERBENCH_FLAGS ?=
bench: build python-deps
	@command -v liblinear-train >/dev/null && command -v svm-train >/dev/null || { \
		$(APT) update -qq && $(APT) install -y -qq liblinear-tools libsvm-tools; }
	$(GO) test -run '^$$' -bench . -benchmem ./plugins/... ./framework/...
	cd $(PEERBENCH) && $(GO) build -o $(CURDIR)/$(BIN)/peerbench .
	$(BIN)/peerbench $(if $(BENCH_DATA),-data $(BENCH_DATA)) $(PEERBENCH_FLAGS) -o docs/performance.md

# Reproducible builds: the commit checked out (HEAD) built twice in one
# fresh clone and once in another gives the same bin/ (sha256sum bin/*
# compared). Uncommitted changes are not in the clones.
repro-check:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	rev=$$(git rev-parse HEAD); \
	for c in a b; do \
		git clone -q --no-checkout "$(CURDIR)" "$$tmp/$$c"; \
		git -C "$$tmp/$$c" checkout -q "$$rev"; \
	done; \
	sums() { (cd "$$tmp/$$1" && $(MAKE) --no-print-directory build >/dev/null && sha256sum bin/*) > "$$tmp/$$2"; }; \
	sums a first; sums a again; sums b other; \
	diff "$$tmp/first" "$$tmp/again" && diff "$$tmp/first" "$$tmp/other" || \
		{ echo "repro-check: the builds of $$rev differ"; exit 1; }; \
	cat "$$tmp/first"; echo "repro-check: $$rev builds to the same bin/ twice in one clone and in another"

clean:
	rm -rf $(BIN)
