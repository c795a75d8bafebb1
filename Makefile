# `make` builds the engine; `make EXE=path` builds it to `path` (what OpenBench runs).
# The rest of the project uses cargo directly (see the README).

EXE ?= arbiter

.PHONY: default tune bench

default:
	cargo rustc --release --bin arbiter -- --emit link=$(EXE)

# Search parameters as UCI options, for SPSA (src/engine/params.rs).
tune:
	cargo rustc --release --bin arbiter --features tune -- --emit link=$(EXE)

bench: default
	./$(EXE) bench
