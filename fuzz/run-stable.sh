#!/usr/bin/env bash
# Fuzzing on the stable toolchain, where nightly and cargo-fuzz cannot be
# had: fuzz/run-stable.sh [SECONDS] [TARGET...] (default 600 s; all eight
# targets, at once, on threads of their own). Runs the ignored test
# `fuzz_stable` of the test binary (tests/fuzz_stable.rs): the same target
# bodies as fuzz/fuzz_targets/*.rs (roots::fuzzing::*), fed blind mutants
# of the seed inputs (no coverage guidance: see that file), niced so that
# the machine's other work goes first. Prints each target's executions and
# crashes; a crash's input is kept under fuzz/artifacts/TARGET/.
set -euo pipefail
secs="${1:-600}"
shift || true
targets="$(IFS=,; echo "$*")"
cd "$(dirname "$0")/.."
ROOTS_FUZZ_SECS="$secs" ROOTS_FUZZ_TARGETS="$targets" \
  nice -n 19 cargo test --test it fuzz_stable -- --ignored --nocapture --test-threads 1
