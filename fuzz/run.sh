#!/usr/bin/env bash
# A short fuzzing pass over every target (or the ones named), one at a time,
# one job each: fuzz/run.sh [SECONDS] [TARGET...]   (default 60 s a target).
# Installs cargo-fuzz if it is missing. Runs on the machine's stable
# toolchain (a fresh machine has no nightly and cannot fetch one):
# RUSTC_BOOTSTRAP=1 lets stable accept the -Z flags cargo-fuzz passes. Built
# optimised (-O) with debug assertions and overflow checks on (-a), so a
# wrapping sum is a crash. Not part of CI: the crashes it finds are kept
# under tests/fuzz/TARGET/ and replayed by the ordinary
# `cargo test --test fuzz_regressions`.
set -euo pipefail
secs="${1:-60}"
shift || true
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
cd "$here"

export RUSTC_BOOTSTRAP=1
cargo fuzz --version >/dev/null 2>&1 || cargo install cargo-fuzz --locked

targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
  targets=(variant_loader record_replay referee_input engine protocol merge script_text script_text_games)
fi

# Seed corpora: the shipped and test variants, the test records, sample
# typed lines, and the inputs of earlier crashes.
seed() {
  local t="$1"; local dir="corpus/$t"
  mkdir -p "$dir"
  case "$t" in
    variant_loader)
      cp -n "$root"/variants/*.toml "$root"/tests/variants/bad/*.toml \
        "$root"/tests/variants/bad/parents/* "$root"/tests/variants/warn/*.toml "$dir"/ 2>/dev/null || true ;;
    record_replay)
      cp -n "$root"/tests/records/good.jsonl "$root"/tests/records/bad/*.jsonl "$dir"/ 2>/dev/null || true ;;
    referee_input)
      local i=0
      for line in "place 9,9" "grow buds" "grow 8" "d8" "3,4" "pass" "spawn 0,0" "lose 1,1" \
                  "grow new-plant" "GROW   simple_growth" "12" "place 99,-1" '{"roll":5,"die":"d8"}' \
                  "c2 2 W" "null b1" "root c1" "d1, large, west" "remove c4" "c4" "A5"; do
        i=$((i + 1))
        printf "$(printf '\\x%02x\\x00\\x%02x\\x%02x' "$((i % 7))" "$i" "$((i * 9 % 256))")%s" "$line" > "$dir/seed-$i"
      done ;;
    engine)
      for i in 0 1 2 3 4 5 6; do
        python3 -c "import random,sys; r=random.Random($i); sys.stdout.buffer.write(bytes([$i, $i]) + bytes(r.randrange(256) for _ in range(4000)))" > "$dir/seed-$i"
      done ;;
    protocol)
      # The hand-made sessions of tests/fuzz/protocol/ (copied below) and
      # the requests of docs/protocol.md, one a line, behind a start byte.
      for i in 0 4 8 11; do
        { printf "$(printf '\\x%02x' "$i")"; grep -hE '^\{"(id|cmd)"' "$root/docs/protocol.md" | grep -v '"ok"' || true; } > "$dir/doc-$i"
      done ;;
    merge)
      # The parts of tests/fuzz/merge/ (copied below): whole parts, and
      # parts cut before their checksum behind a byte that seals them.
      ;;
  esac
  if [ -d "$root/tests/fuzz/$t" ]; then
    cp -n "$root/tests/fuzz/$t"/* "$dir"/ 2>/dev/null || true
  fi
}

mkdir -p logs artifacts
for t in "${targets[@]}"; do
  seed "$t"
  echo "== $t: ${secs}s"
  status=0
  cargo fuzz run -O -a "$t" "corpus/$t" -- \
    -max_total_time="$secs" -jobs=1 -workers=1 -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="artifacts/$t/" >"logs/$t.out" 2>&1 || status=$?
  mkdir -p "artifacts/$t"
  log="fuzz-0.log"
  [ -f "$log" ] && mv "$log" "logs/$t.log"
  grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' "logs/$t.log" 2>/dev/null | tail -n 1 || true
  grep -hE 'stat::number_of_executed_units|Done [0-9]+ runs' "logs/$t.log" 2>/dev/null | tail -n 1 || true
  if [ "$status" -ne 0 ] || ls "artifacts/$t"/crash-* >/dev/null 2>&1; then
    echo "!! $t found a crash: see fuzz/logs/$t.log and fuzz/artifacts/$t/"
  fi
done
