# `make demo` and `make test` do all the set-up they need, on a fresh machine too.
SHELL := /bin/bash
# Where rustup installs cargo when scripts/setup.sh had to install it.
export PATH := $(HOME)/.cargo/bin:$(PATH)

MEX_LIBRARY := $(or $(CARGO_TARGET_DIR),target)/release/libmsad.so
# Octave loads NAME.mex. (MATLAB's NAME.mexa64 is another build: `make matlab`.)
# msad_apply.mex is the same library under another name: @fmad runs its operations through it.
MEX_FILES := matlab/msad_eval.mex matlab/msad_apply.mex
OCTAVE := bash scripts/octave.sh

.PHONY: setup build demo test bench package matlab

setup:
	@bash scripts/setup.sh

build: setup
	cargo build --release
	@nm -D --defined-only $(MEX_LIBRARY) | grep -q ' mexFunction$$' || \
	  { echo "build: $(MEX_LIBRARY) has no mexFunction: mex.h was not found (see cargo's warning)" >&2; exit 1; }
	@# Renamed into place, never rewritten: a running Octave may have the old file mapped.
	@for mex in $(MEX_FILES); do cp $(MEX_LIBRARY) $$mex.tmp && mv -f $$mex.tmp $$mex; done

demo: build
	$(OCTAVE) --eval "addpath('$(CURDIR)/matlab', '$(CURDIR)/matlab/examples'); msad_demo"

test: build
	@bash scripts/test.sh

# benches/run.sh runs every benchmark and writes BENCHMARKS.md (MSAD_BENCH_QUICK=1: a smoke test).
bench: build
	bash benches/run.sh

# The Octave package msad-<version>.tar.gz (pkg install builds the MEX with cargo).
package:
	@bash scripts/package.sh

# The MATLAB flavour (only MATLAB's documented MEX/MX API), its imports checked; never run in MATLAB
# here. See scripts/build_matlab.sh.
matlab: setup
	@bash scripts/build_matlab.sh
