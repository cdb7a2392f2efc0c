#!/usr/bin/env bash
# Generate a real GHC eventlog of millions of short-lived Haskell threads, for benchmarks
# (not committed): the shape of a server that forks a thread per connection.
#
# Usage: tools/gen-threads-eventlog.sh OUT [THREADS [ROUND]]
#
# Builds fixtures/src/short_threads.hs and runs it with `+RTS -N2 -l`: THREADS threads
# (default 2000000) forked in rounds of ROUND (default 1000), each doing a little work and
# finishing; one in ten is labelled. About 100 bytes of eventlog per thread.
#
# Needs GHC (Debian: apt-get install -y ghc); installs nothing itself. The program runs
# with a clean environment from a temporary directory, so the eventlog holds no machine
# paths.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 3 ]; then
  echo "usage: $0 OUT [THREADS [ROUND]]" >&2
  exit 2
fi
OUT_ARG=$1
THREADS=${2:-2000000}
ROUND=${3:-1000}
for v in "$THREADS" "$ROUND"; do
  case "$v" in ''|*[!0-9]*) echo "gen-threads-eventlog: THREADS and ROUND must be whole numbers" >&2; exit 2 ;; esac
done
[ "$ROUND" -ge 1 ] && [ "$THREADS" -ge "$ROUND" ] \
  || { echo "gen-threads-eventlog: ROUND must be at least 1 and THREADS at least ROUND" >&2; exit 2; }
command -v ghc >/dev/null 2>&1 || {
  echo "gen-threads-eventlog: ghc not found; install it with: apt-get install -y ghc" >&2
  exit 1
}

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT_DIR=$(cd "$(dirname "$OUT_ARG")" && pwd) || { echo "gen-threads-eventlog: no directory for $OUT_ARG" >&2; exit 1; }
OUT="$OUT_DIR/$(basename "$OUT_ARG")"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gen-threads-eventlog.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/obj" "$WORK/run"

echo "== building short_threads.hs"
( cd "$ROOT/fixtures/src" && ghc -v0 -O1 -rtsopts -threaded -eventlog \
    -outputdir "$WORK/obj" -o "$WORK/run/short_threads" short_threads.hs )

echo "== running: $THREADS threads in rounds of $ROUND"
start=$(date +%s)
( cd "$WORK/run" && env -i PATH=/usr/bin:/bin LANG=C.UTF-8 \
    ./short_threads "$THREADS" "$ROUND" +RTS -N2 -l -olthreads.eventlog -RTS )
size=$(stat -c %s "$WORK/run/threads.eventlog")
mv "$WORK/run/threads.eventlog" "$OUT"
echo "== $OUT: $size bytes in $(( $(date +%s) - start )) s"
