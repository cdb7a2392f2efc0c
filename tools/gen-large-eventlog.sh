#!/usr/bin/env bash
# Generate a large, real GHC eventlog for benchmarks (not committed).
#
# Usage: tools/gen-large-eventlog.sh [--caps N] [--tile-to SIZE_MB [--source LOG]] OUT [SIZE_MB]
#
# Builds fixtures/src/concurrency.hs (threads with labels, MVars, black holes,
# STM, FFI calls, throwTo, user markers, parallel GC) and runs it with
# `+RTS -N4 -l` for as many rounds as it takes to write at least SIZE_MB
# (default 300) megabytes (1 MB = 1,000,000 bytes) of eventlog to OUT.
# Four capabilities on any machine (oversubscribed on a 2-core one), so the
# log has four capability block streams plus the global one; --caps N (1 to 256)
# runs it with -N<N> instead: a program on a larger machine, whose records the
# reader merges from N streams (not with --source, which runs nothing).
#
# It first times a short calibration run to pick the number of rounds
# (about 20-30 kB of eventlog per round, roughly 2 MB/s on a 2-core machine),
# and runs again with more rounds if the result is still too small.
#
# --tile-to SIZE_MB: larger logs in minutes instead of hours. The real log of
# SIZE_MB (default 300) is made in a temporary directory, then tools/eventlog_tile.cpp
# lays copies of it one after another in time (thread ids shifted per copy, the
# one-off events once; its header comment lists the limits) as many times as brings
# OUT nearest to the --tile-to size (in steps of the real log's size). --source LOG tiles an existing real eventlog instead of
# generating one. The tiler is $EVENTLOG_TILE, or built (brought up to date) in
# build-release/ or build/, whichever is configured first, else in a new build-release/.
#
# Needs GHC (Debian: apt-get install -y ghc); installs nothing itself.
# The program runs with a clean environment from a temporary directory, so the
# eventlog holds no machine paths (PROGRAM_ARGS is "./concurrency N +RTS ...").
set -euo pipefail

TILE_TO=""
SOURCE=""
CAPS=4
CAPS_GIVEN=""
while [ $# -gt 0 ]; do
  case "$1" in
    --caps) [ $# -ge 2 ] || { echo "gen-large-eventlog: --caps needs N" >&2; exit 2; }; CAPS=$2; CAPS_GIVEN=1; shift 2 ;;
    --tile-to) [ $# -ge 2 ] || { echo "gen-large-eventlog: --tile-to needs SIZE_MB" >&2; exit 2; }; TILE_TO=$2; shift 2 ;;
    --source) [ $# -ge 2 ] || { echo "gen-large-eventlog: --source needs a file" >&2; exit 2; }; SOURCE=$2; shift 2 ;;
    --) shift; break ;;
    -*) echo "gen-large-eventlog: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 [--caps N] [--tile-to SIZE_MB [--source LOG]] OUT [SIZE_MB]" >&2
  exit 2
fi
OUT_ARG=$1
SIZE_MB=${2:-300}
for v in "$SIZE_MB" ${TILE_TO:+"$TILE_TO"}; do
  case "$v" in ''|*[!0-9]*) echo "gen-large-eventlog: SIZE_MB must be a whole number" >&2; exit 2 ;; esac
  [ "$v" -ge 1 ] || { echo "gen-large-eventlog: SIZE_MB must be at least 1" >&2; exit 2; }
done
[ -z "$SOURCE" ] || [ -n "$TILE_TO" ] || { echo "gen-large-eventlog: --source goes with --tile-to" >&2; exit 2; }
case "$CAPS" in ''|*[!0-9]*) echo "gen-large-eventlog: --caps must be a whole number" >&2; exit 2 ;; esac
[ "$CAPS" -ge 1 ] && [ "$CAPS" -le 256 ] || { echo "gen-large-eventlog: --caps must be 1 to 256" >&2; exit 2; }
[ -z "$SOURCE" ] || [ -z "$CAPS_GIVEN" ] || { echo "gen-large-eventlog: --caps does not go with --source" >&2; exit 2; }

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT_DIR=$(cd "$(dirname "$OUT_ARG")" && pwd) || { echo "gen-large-eventlog: no directory for $OUT_ARG" >&2; exit 1; }
OUT="$OUT_DIR/$(basename "$OUT_ARG")"

# tile SOURCE: OUT = copies of SOURCE up to TILE_TO MB
tile() {
  local tiler=${EVENTLOG_TILE:-} dir
  if [ -z "$tiler" ]; then
    for dir in "$ROOT/build-release" "$ROOT/build"; do
      if [ -f "$dir/build.ninja" ]; then
        meson compile -C "$dir" tools/eventlog-tile >/dev/null  # brings it up to date
        tiler=$dir/tools/eventlog-tile
        break
      fi
    done
  fi
  if [ -z "$tiler" ]; then
    echo "== building the tiler in build-release/"
    meson setup "$ROOT/build-release" --buildtype=release -Dtests=false >/dev/null
    meson compile -C "$ROOT/build-release" tools/eventlog-tile >/dev/null
    tiler=$ROOT/build-release/tools/eventlog-tile
  fi
  echo "== tiling $(stat -c %s "$1") bytes to about $TILE_TO MB"
  local start
  start=$(date +%s)
  "$tiler" --size-mb "$TILE_TO" "$1" "$OUT.tmp" || { rm -f "$OUT.tmp"; exit 1; }
  mv "$OUT.tmp" "$OUT"
  echo "== $OUT: $(stat -c %s "$OUT") bytes, tiled in $(( $(date +%s) - start )) s"
}

if [ -n "$SOURCE" ]; then
  [ -f "$SOURCE" ] || { echo "gen-large-eventlog: no such file: $SOURCE" >&2; exit 1; }
  tile "$SOURCE"
  exit 0
fi

command -v ghc >/dev/null 2>&1 || {
  echo "gen-large-eventlog: ghc not found; install it with: apt-get install -y ghc" >&2
  exit 1
}

SRC="$ROOT/fixtures/src"
TARGET=$((SIZE_MB * 1000000))

WORK=$(mktemp -d "${TMPDIR:-/tmp}/gen-large-eventlog.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/obj" "$WORK/run"

echo "== building concurrency.hs"
( cd "$SRC" && ghc -v0 -O1 -rtsopts -threaded -eventlog -feager-blackholing \
    -outputdir "$WORK/obj" -o "$WORK/run/concurrency" concurrency.hs )

# run_rounds N FILE: run the program for N rounds, eventlog to $WORK/run/FILE
run_rounds() {
  ( cd "$WORK/run" && env -i PATH=/usr/bin:/bin LANG=C.UTF-8 \
      ./concurrency "$1" +RTS -N"$CAPS" -l -ol"$2" -RTS >/dev/null )
}

CAL_ROUNDS=100
echo "== calibrating ($CAL_ROUNDS rounds)"
run_rounds "$CAL_ROUNDS" calibrate.eventlog
cal_bytes=$(stat -c %s "$WORK/run/calibrate.eventlog")
rm -f "$WORK/run/calibrate.eventlog"
# rounds = target / bytes-per-round, plus 10%
rounds=$(( (TARGET / (cal_bytes / CAL_ROUNDS) + 1) * 11 / 10 + 1 ))

for attempt in 1 2 3 4; do
  echo "== attempt $attempt: $rounds rounds for >= $SIZE_MB MB"
  start=$(date +%s)
  run_rounds "$rounds" large.eventlog
  size=$(stat -c %s "$WORK/run/large.eventlog")
  echo "   wrote $size bytes in $(( $(date +%s) - start )) s"
  if [ "$size" -ge "$TARGET" ]; then
    if [ -n "$TILE_TO" ]; then
      echo "   real log: $size bytes, $rounds rounds, $CAPS capabilities"
      tile "$WORK/run/large.eventlog"
    else
      mv "$WORK/run/large.eventlog" "$OUT"
      echo "== $OUT: $size bytes, $rounds rounds, $CAPS capabilities"
    fi
    exit 0
  fi
  rounds=$(( rounds * TARGET * 11 / (size * 10) + 1 ))
done
echo "gen-large-eventlog: could not reach $SIZE_MB MB" >&2
exit 1
