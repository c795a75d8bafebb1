# `make` builds the engine; `make EXE=path` builds it to `path` (what OpenBench runs), with
# `EVALFILE=net.nnue` that network built in instead of nets/default.nnue (OpenBench passes it
# for a test with a network; build.rs reads it as ARBITER_EVALFILE). docs/openbench.md.
# The rest of the project uses cargo directly (see the README).

EXE ?= arbiter
EVALFILE ?=

# Always set, so `make` without EVALFILE builds the committed network whatever the environment holds.
CARGO := ARBITER_EVALFILE="$(if $(EVALFILE),$(abspath $(EVALFILE)))" cargo

.PHONY: default tune bench

default:
	$(CARGO) rustc --release --bin arbiter -- --emit link=$(EXE)

# Search parameters as UCI options, for SPSA (src/engine/params.rs).
tune:
	$(CARGO) rustc --release --bin arbiter --features tune -- --emit link=$(EXE)

bench: default
	$(abspath $(EXE)) bench
