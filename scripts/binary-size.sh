#!/usr/bin/env bash
# Check the README's stated size of the release binary: build it (cargo
# build --release, stripped by the release profile), measure it, and fail
# when it is outside the range the README states ("binary (between A and B
# MB"). A test cannot do this honestly: `cargo test` builds no release
# binary, so such a test would only ever check a stale one, or none.
#
# Usage: scripts/binary-size.sh            (prints the size; exit 1 outside the range)
set -euo pipefail
cd "$(dirname "$0")/.."
range=$(grep -o 'binary (between [0-9]* and [0-9]* MB' README.md | head -1)
if [ -z "$range" ]; then
    echo "README.md states no range for the binary's size ('binary (between A and B MB')" >&2
    exit 2
fi
lo=$(echo "$range" | awk '{print $3}')
hi=$(echo "$range" | awk '{print $5}')
cargo build --release --quiet
bytes=$(stat -c %s target/release/roots)
echo "target/release/roots: $bytes bytes ($(date -u +%F), $(rustc --version)); the README says $lo to $hi MB"
if [ "$bytes" -lt $((lo * 1000000)) ] || [ "$bytes" -gt $((hi * 1000000)) ]; then
    echo "outside the README's range: update the README (and say why it changed)" >&2
    exit 1
fi
