#!/usr/bin/env bash
# Regenerate the GHC eventlog fixtures in fixtures/ from the programs in
# fixtures/src/ (see fixtures/README.md).
#
# Usage: tools/regen-fixtures.sh [FILE...]
# With FILE names (e.g. gc-n4.eventlog gc-n4.S.txt), only those outputs are copied to
# fixtures/: a new fixture can be added without changing the committed ones.
#
# Needs GHC with profiling libraries and the parallel package; on Debian
# bookworm (GHC 9.0.2):
#   apt-get install -y ghc ghc-prof libghc-parallel-dev libghc-parallel-prof
# Optional, for the sanity check (fixtures/eventlog-check.txt):
#   apt-get install -y libghc-ghc-events-dev
# This script installs nothing itself.
#
# Privacy: the programs are compiled from relative file names and run as
# ./name from a temporary directory with a clean environment
# (env -i PATH=/usr/bin:/bin LANG=C.UTF-8), and every RTS output file is
# named relatively, so no machine path, user name or environment variable
# ends up in the committed files. The script checks this at the end.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SRC="$ROOT/fixtures/src"
OUT="$ROOT/fixtures"
CLEAN_ENV=(env -i PATH=/usr/bin:/bin LANG=C.UTF-8)
APT_LINE="apt-get install -y ghc ghc-prof libghc-parallel-dev libghc-parallel-prof"

die() { echo "regen-fixtures: $*" >&2; exit 1; }

command -v ghc >/dev/null 2>&1 || die "ghc not found; install it with: $APT_LINE"
command -v ghc-pkg >/dev/null 2>&1 || die "ghc-pkg not found; install it with: $APT_LINE"
GHC_VERSION=$(ghc --numeric-version)
if [ "$GHC_VERSION" != "9.0.2" ]; then
  echo "regen-fixtures: warning: GHC $GHC_VERSION; the committed fixtures and fixtures/README.md describe GHC 9.0.2" >&2
fi
[ -n "$(ghc-pkg --simple-output list parallel 2>/dev/null)" ] \
  || die "the Haskell package 'parallel' is missing; install it with: $APT_LINE"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/regen-fixtures.XXXXXX")
PIDS_TO_KILL=()
cleanup() {
  local p
  for p in ${PIDS_TO_KILL[@]+"${PIDS_TO_KILL[@]}"}; do
    kill -9 "$p" 2>/dev/null || true
  done
  rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$WORK/run" "$WORK/obj"
RUN="$WORK/run"

# build NAME GHC-FLAGS... : compile fixtures/src/NAME.hs to $RUN/NAME
build() {
  local name=$1; shift
  echo "== building $name ($*)"
  ( cd "$SRC" && ghc -v0 -O1 -rtsopts "$@" -outputdir "$WORK/obj/$name" -o "$RUN/$name" "$name.hs" )
}

# run NAME ARGS... : run ./NAME from $RUN with a clean environment
run() {
  local name=$1; shift
  echo "== running ./$name $*"
  ( cd "$RUN" && "${CLEAN_ENV[@]}" "./$name" "$@" >/dev/null )
}

# ---------------------------------------------------------------------------
# Build

build concurrency -threaded -eventlog -feager-blackholing
build sparks      -threaded -eventlog
build alloc       -threaded -eventlog
build userevents  -eventlog
build profiled    -prof -fprof-auto -threaded
# The same program for the non-profiled runtime: its heap profile (-hT) counts censuses as GC.
echo "== building profiled-plain (profiled.hs, -threaded -eventlog, not profiled)"
( cd "$SRC" && ghc -v0 -O1 -rtsopts -threaded -eventlog -outputdir "$WORK/obj/profiled-plain" -o "$RUN/profiled-plain" profiled.hs )

# ---------------------------------------------------------------------------
# Run

run concurrency +RTS -N2 -l -olconcurrency.eventlog -Sconcurrency.S.txt -RTS
run sparks      +RTS -N2 -lsgpfu -e64 -olsparks.eventlog -Ssparks.S.txt -RTS
run alloc       +RTS -N2 -G3 -l -olalloc.eventlog -Salloc.S.txt -RTS
# More capabilities than cores (this machine has 2): capabilities wait in parallel GCs while
# their OS threads are descheduled.
run alloc       +RTS -N4 -G3 -l -olgc-n4.eventlog -Sgc-n4.S.txt -RTS
run userevents  +RTS -l -oluserevents.eventlog -Suserevents.S.txt -RTS
# The nonmoving (concurrent mark) collector for the oldest generation, with
# its census events: -xn plus the `n` event class.
run alloc       30000 +RTS -N2 -xn -lsgpun -olnonmoving.eventlog -RTS
# Profiled, run 1: time profile (.prof and PROF_SAMPLE_COST_CENTRE events)
# plus heap profile by cost centre; run 2: heap profile by type only.
# A heap profile with the runtime's report: its PROF time (the censuses) is not GC time.
run profiled    +RTS -N2 -A4m -hy -i0.005 -l -olcensus-hy.eventlog -Scensus-hy.S.txt -RTS
# A heap profile of a non-profiled runtime with its report: no PROF line, censuses in GC.
run profiled-plain +RTS -N2 -A4m -hT -i0.005 -l -olheap-hT.eventlog -Sheap-hT.S.txt -RTS
run profiled    +RTS -N2 -A4m -p -hc -i0.005 -l -olprofiled.eventlog -RTS
mv "$RUN/profiled.hp" "$RUN/profiled-hc.hp.keep"
run profiled    +RTS -N2 -A4m -hy -i0.005 -l -olprofiled-hy.eventlog -RTS
mv "$RUN/profiled.hp" "$RUN/profiled-hy.hp"
mv "$RUN/profiled-hc.hp.keep" "$RUN/profiled.hp"

# killed.eventlog: a run of the concurrency program killed with SIGKILL in the
# middle of writing its eventlog.
# GHC 9.0 keeps 2 MB of events per capability in memory and writes a buffer
# only when it is full (there is no flush interval before GHC 9.2), so a
# SIGKILL on a program writing to a plain file leaves either the header alone
# or whole 2 MB blocks. To get a small file that is cut inside the data, as
# happens when the process dies while a write is in progress, the eventlog
# goes through a FIFO: the reader keeps the first KILL_BYTES bytes and then
# stops reading, so the RTS blocks in write() during its first buffer flush,
# and is then killed with SIGKILL.
KILL_BYTES=300001
echo "== running ./concurrency 100000 (eventlog to a FIFO, SIGKILL after $KILL_BYTES bytes)"
mkfifo "$RUN/killed.fifo"
exec 3<>"$RUN/killed.fifo"          # read-write, so opening never blocks and the writer never sees EPIPE
( cd "$RUN" && exec "${CLEAN_ENV[@]}" ./concurrency 100000 +RTS -N2 -l -olkilled.fifo -RTS >/dev/null ) &
KPID=$!
PIDS_TO_KILL+=("$KPID")
timeout 120 head -c "$KILL_BYTES" <&3 >"$RUN/killed.eventlog" \
  || die "the concurrency program did not write $KILL_BYTES eventlog bytes within 120 s"
kill -9 "$KPID"
wait "$KPID" 2>/dev/null || true
PIDS_TO_KILL=()
exec 3<&-
rm -f "$RUN/killed.fifo"
[ "$(stat -c %s "$RUN/killed.eventlog")" -eq "$KILL_BYTES" ] || die "killed.eventlog has the wrong size"

# killed-early.eventlog: the alloc program killed with SIGKILL before any
# event buffer was written: the header (ending in "datb") and nothing else.
echo "== running ./alloc 4000000 (SIGKILL as soon as the eventlog header is on disk)"
( cd "$RUN" && exec "${CLEAN_ENV[@]}" ./alloc 4000000 +RTS -N2 -G3 -l -olkilled-early.eventlog -RTS >/dev/null ) &
KPID=$!
PIDS_TO_KILL+=("$KPID")
for _ in $(seq 1 500); do
  if [ -s "$RUN/killed-early.eventlog" ] && [ "$(tail -c 4 "$RUN/killed-early.eventlog")" = "datb" ]; then
    break
  fi
  sleep 0.01
done
sleep 0.1
kill -9 "$KPID"
wait "$KPID" 2>/dev/null || true
PIDS_TO_KILL=()
[ "$(tail -c 4 "$RUN/killed-early.eventlog")" = "datb" ] \
  || die "killed-early.eventlog does not end right after the header (an event buffer was flushed already?)"

# ---------------------------------------------------------------------------
# Copy to fixtures/

FILES=(
  concurrency.eventlog concurrency.S.txt
  sparks.eventlog sparks.S.txt
  alloc.eventlog alloc.S.txt
  userevents.eventlog userevents.S.txt
  nonmoving.eventlog
  profiled.eventlog profiled.prof profiled.hp
  profiled-hy.eventlog profiled-hy.hp
  killed.eventlog killed-early.eventlog
  gc-n4.eventlog gc-n4.S.txt
  census-hy.eventlog census-hy.S.txt
  heap-hT.eventlog heap-hT.S.txt
)
if [ "$#" -gt 0 ]; then
  for f in "$@"; do
    case " ${FILES[*]} " in *" $f "*) ;; *) die "$f is not one of the outputs: ${FILES[*]}" ;; esac
  done
  FILES=("$@")
fi
for f in "${FILES[@]}"; do
  [ -f "$RUN/$f" ] || die "expected output $f was not produced"
  cp "$RUN/$f" "$OUT/$f"
done

# ---------------------------------------------------------------------------
# Privacy check: no machine paths, user names or environment in the outputs.

PATTERNS=(/tmp /work /root /home /usr/local "HOME=" "USER=" "LOGNAME=" "PWD=" "$WORK" "$ROOT")
[ -n "${USER:-}" ] && [ "${USER:-}" != "root" ] && PATTERNS+=("$USER")
HOST=$(hostname 2>/dev/null || true)
[ -n "$HOST" ] && [ "${#HOST}" -ge 4 ] && PATTERNS+=("$HOST")
bad=0
for f in "${FILES[@]}"; do
  for p in "${PATTERNS[@]}"; do
    if grep -a -F -q -- "$p" "$OUT/$f"; then
      echo "regen-fixtures: $f contains '$p'" >&2
      bad=1
    fi
  done
done
[ "$bad" -eq 0 ] || die "private data found in the fixtures (see above)"
echo "== privacy check passed (no machine paths or environment in the outputs)"

# ---------------------------------------------------------------------------
# Sanity check with ghc-events, when installed.

EVENTLOGS=()
for f in "${FILES[@]}"; do
  case "$f" in *.eventlog) EVENTLOGS+=("$f") ;; esac
done
if [ -n "$(ghc-pkg --simple-output list ghc-events 2>/dev/null)" ]; then
  echo "== checking the eventlogs with ghc-events"
  ( cd "$SRC/check" && ghc -v0 -O1 -package ghc-events -outputdir "$WORK/obj/check" -o "$WORK/eventlog-check" EventlogCheck.hs )
  ( cd "$OUT" && "$WORK/eventlog-check" "${EVENTLOGS[@]}" ) >"$OUT/eventlog-check.txt" \
    || { cat "$OUT/eventlog-check.txt"; die "an eventlog failed to decode"; }
  for f in "${EVENTLOGS[@]}"; do
    line=$(grep -A1 -F "$f (" "$OUT/eventlog-check.txt" | sed -n 2p)
    case "$f" in
      killed*) case "$line" in *"end-of-data marker at"*) die "$f unexpectedly ends with the end-of-data marker" ;; esac ;;
      *)       case "$line" in *"end-of-data marker at offset"*) ;; *) die "$f: $line" ;; esac ;;
    esac
  done
  echo "   ok (details in fixtures/eventlog-check.txt)"
else
  echo "== ghc-events not installed, skipping the decode check (apt-get install -y libghc-ghc-events-dev)"
fi

# ---------------------------------------------------------------------------
echo
echo "GHC $GHC_VERSION; files written to fixtures/:"
total=0
for f in "${FILES[@]}" eventlog-check.txt; do
  [ -f "$OUT/$f" ] || continue
  s=$(stat -c %s "$OUT/$f")
  total=$((total + s))
  printf '  %-26s %10d bytes\n' "$f" "$s"
done
printf '  %-26s %10d bytes\n' "total" "$total"
