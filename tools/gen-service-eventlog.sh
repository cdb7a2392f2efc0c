#!/usr/bin/env bash
# Generate a long, sparse, real GHC eventlog of a service-like program, for
# benchmarks (not committed).
#
# Usage: tools/gen-service-eventlog.sh OUT SECONDS [HANDLERS [RATE]]
#
# Builds fixtures/src/service_load.hs (a dispatcher thread, HANDLERS request
# handlers "handler-1".."handler-N" (default 50) blocked on MVars, a Chan, an STM
# TQueue or threadDelay most of the time, a "stats" thread, occasional
# traceEventIO messages, and a USER_MARKER "minute N" at the start of every
# minute of run time) and runs it for SECONDS seconds of wall-clock time with
# `+RTS -N2 -l`, writing the eventlog to OUT. RATE is the number of requests per
# second per handler (default 30).
#
# With the defaults it writes about 0.65 MB of eventlog per second (about 40,000
# events per second, 58 threads) on a 2-core machine while using about a tenth of
# one core: a 20-minute run is roughly 800 MB and 50 million events. The run
# takes SECONDS of wall time whatever the machine; the size scales with
# HANDLERS * RATE.
#
# Needs GHC (Debian: apt-get install -y ghc); installs nothing itself.
# The program runs with a clean environment from a temporary directory, so the
# eventlog holds no machine paths (PROGRAM_ARGS is "./service_load S H R +RTS ...").
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 4 ]; then
  echo "usage: $0 OUT SECONDS [HANDLERS [RATE]]" >&2
  exit 2
fi
OUT_ARG=$1
SECONDS_ARG=$2
HANDLERS=${3:-50}
RATE=${4:-30}
for v in "$SECONDS_ARG" "$HANDLERS" "$RATE"; do
  case "$v" in ''|*[!0-9]*) echo "gen-service-eventlog: SECONDS, HANDLERS and RATE must be whole numbers" >&2; exit 2 ;; esac
done
[ "$SECONDS_ARG" -ge 1 ] && [ "$HANDLERS" -ge 1 ] && [ "$RATE" -ge 1 ] \
  || { echo "gen-service-eventlog: SECONDS, HANDLERS and RATE must be at least 1" >&2; exit 2; }

command -v ghc >/dev/null 2>&1 || {
  echo "gen-service-eventlog: ghc not found; install it with: apt-get install -y ghc" >&2
  exit 1
}

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SRC="$ROOT/fixtures/src"
OUT_DIR=$(cd "$(dirname "$OUT_ARG")" && pwd) || { echo "gen-service-eventlog: no directory for $OUT_ARG" >&2; exit 1; }
OUT="$OUT_DIR/$(basename "$OUT_ARG")"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gen-service-eventlog.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/obj" "$WORK/run"

echo "== building service_load.hs"
( cd "$SRC" && ghc -v0 -O1 -rtsopts -threaded -eventlog \
    -outputdir "$WORK/obj" -o "$WORK/run/service_load" service_load.hs )

echo "== running for $SECONDS_ARG s: $HANDLERS handlers, $RATE requests/s each"
start=$(date +%s)
( cd "$WORK/run" && env -i PATH=/usr/bin:/bin LANG=C.UTF-8 \
    ./service_load "$SECONDS_ARG" "$HANDLERS" "$RATE" +RTS -N2 -l -olservice.eventlog -RTS )
size=$(stat -c %s "$WORK/run/service.eventlog")
mv "$WORK/run/service.eventlog" "$OUT"
echo "== $OUT: $size bytes in $(( $(date +%s) - start )) s"
