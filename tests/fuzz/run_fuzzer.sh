#!/bin/sh
# run_fuzzer.sh FUZZER SECONDS SEED_DIR...: copies the seed files into a fresh
# working corpus (libFuzzer writes into it) and fuzzes for SECONDS. An input
# that fails is kept in the directory it was started from (crash-*, leak-*,
# timeout-*) to reproduce with `FUZZER FILE`.
set -eu
fuzzer=$(realpath "$1"); seconds=$2; shift 2
artifacts=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus"
for dir in "$@"; do
  [ -d "$dir" ] || continue
  find "$dir" -type f \( -name '*.hlo' -o -name '*.hlotxt' -o -name '*.mlir' -o -name '*.seed' \
    -o -name '*.npy' -o -name '*.textproto' -o -name '*.pb' -o -name '*.pbtxt' \) \
    -size -256k -exec cp {} "$work/corpus/" \; 2>/dev/null || true
done
cd "$work"
exec "$fuzzer" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="$artifacts/" \
  -print_final_stats=1 "$work/corpus"
