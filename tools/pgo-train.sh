#!/usr/bin/env bash
# The training runs of the profile-guided build (tools/build-release.sh): an instrumented
# eventlog2fxprof runs the commands users run on the eventlogs bundled in fixtures/ (every
# GHC's layout, every kind of event), then converts larger logs tiled from them, where the
# per-event paths and the output budget dominate as they do on real long logs. Only bundled
# data: a user's build trains on the same runs as ours.
#
#   tools/pgo-train.sh PROGRAM EVENTLOG_TILE
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -eq 2 ]] || { echo "usage: tools/pgo-train.sh PROGRAM EVENTLOG_TILE" >&2; exit 2; }
prog=$1
tile=$2

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Every bundled eventlog, through every command that reads one. Some are cut short or
# damaged on purpose (killed*.eventlog): their exit status says so, and is not a failure here.
mapfile -t logs < <(find fixtures -name '*.eventlog' | sort)
[[ ${#logs[@]} -gt 0 ]] || { echo "pgo-train.sh: no eventlogs in fixtures/" >&2; exit 1; }
for log in "${logs[@]}"; do
  "$prog" convert "$log" -o "$tmp/out.json.gz" >/dev/null 2>&1 || true
  "$prog" summary "$log" >/dev/null 2>&1 || true
  "$prog" dump --stats "$log" >/dev/null 2>&1 || true
done
"$prog" dump fixtures/concurrency.eventlog >/dev/null
"$prog" convert --from 1ms --to 50ms fixtures/gc-n4.eventlog -o "$tmp/out.json.gz" >/dev/null 2>&1
"$prog" compare fixtures/compare/alloc-A256k-1.eventlog fixtures/compare/alloc-A256k-2.eventlog \
  -- fixtures/compare/alloc-A1m-1.eventlog fixtures/compare/alloc-A1m-2.eventlog >/dev/null

# Larger logs, each tiled from a fixture (SIZE MB; each copy's threads are new threads) and
# converted with the default budget and with a small one: GC and heap events; a quarter of a
# million short-lived threads, past the census's forgetting and the budget's folding (the
# census pass); a busy program's hundred thousand threads, each in many records, whose census
# the index learns from the blocks, past its forgetting too (untrained, those paths were
# compiled as rarely taken: the index phase of a dense log was slower than without PGO); sparks.
for spec in gc-n4.eventlog:40 ghc-9.10.3/concurrency.eventlog:100 concurrency.eventlog:100 sparks.eventlog:20; do
  log=$tmp/tiled.eventlog
  "$tile" --size-mb "${spec##*:}" "fixtures/${spec%%:*}" "$log" >/dev/null 2>&1
  "$prog" convert "$log" -o "$tmp/out.json.gz" >/dev/null
  "$prog" convert --max-profile-size 5MB "$log" -o "$tmp/out.json.gz" >/dev/null
  rm -f "$log"
done
