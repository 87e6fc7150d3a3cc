#!/bin/sh
# run_concurrently.sh ROUNDS COPIES COMMAND [ARGS...]: runs COPIES copies of
# COMMAND at once, ROUNDS times over; fails on the first round in which any
# copy fails, after printing that copy's output. For bugs that only show
# when processes compete for the machine.
set -u
if [ "$#" -lt 3 ]; then
  echo "usage: $0 ROUNDS COPIES COMMAND [ARGS...]" >&2
  exit 2
fi
rounds=$1
copies=$2
shift 2
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

round=1
while [ "$round" -le "$rounds" ]; do
  pids=""
  copy=1
  while [ "$copy" -le "$copies" ]; do
    "$@" >"$logs/$copy.log" 2>&1 &
    pids="$pids $!"
    copy=$((copy + 1))
  done
  copy=1
  failed=0
  for pid in $pids; do
    wait "$pid"
    status=$?
    if [ "$status" -ne 0 ]; then
      echo "round $round/$rounds: copy $copy of $copies failed (exit status $status):" >&2
      cat "$logs/$copy.log" >&2
      failed=1
    fi
    copy=$((copy + 1))
  done
  if [ "$failed" -ne 0 ]; then
    exit 1
  fi
  round=$((round + 1))
done
echo "$rounds rounds of $copies concurrent copies passed: $*"
