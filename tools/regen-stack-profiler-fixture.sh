#!/usr/bin/env bash
# Regenerate fixtures/ghc-9.10.3/stack-profiler.*: an eventlog written by a program that uses
# well-typed's ghc-stack-profiler (stack samples of a non-profiled build, written as
# USER_BINARY_MSG events; fixtures/src/stack_profiler/WIRE-FORMAT.md describes them), built
# and run with GHC 9.10 inside a Debian sid chroot. Never run by CI or the tests: they read
# the committed fixtures.
#
# Usage: tools/regen-stack-profiler-fixture.sh CHROOT_DIR MIRROR_GSP MIRROR_GTE
#   CHROOT_DIR  a Debian sid chroot with ghc (9.10), ghc-prof, libghc-async-dev and
#               libghc-ghc-events-dev installed (../shared/newer-ghc.md says how to make one)
#   MIRROR_GSP  a git directory (a bare mirror is enough) of github.com/well-typed/ghc-stack-profiler
#               that has commit $GSP_COMMIT (release 0.4.0.0)
#   MIRROR_GTE  a git directory of github.com/maoe/ghc-trace-events that has commit $GTE_COMMIT
#               (ghc-stack-profiler needs it before GHC 9.12)
# Needs root (chroot). The sources of both libraries are exported (git archive) into the
# chroot's folder /gsp-build, built there together with fixtures/src/stack_profiler/Main.hs
# (the library is never installed, nor copied into this repository), and the program runs
# there. Writes to fixtures/ghc-VERSION/:
#   stack-profiler.eventlog            the eventlog (+RTS -N3 -l)
#   stack-profiler.S.txt               the run's +RTS -S report
#   stack-profiler.ghc-events.txt.gz   what the chroot's ghc-events library prints for it
#                                      (fixtures/src/check/ShowEventlog.hs, `ghc-events show`)
# The run is repeated (up to $MAX_ATTEMPTS times) until the eventlog has a sample split over
# more than one message (a 0xFFCB chunk: the program's deep ping/pong phase must be sampled,
# which depends on timing) and is at most $MAX_BYTES bytes.
#
# Privacy: as tools/regen-fixtures.sh: the program runs as ./name from the build folder with
# env -i PATH=/usr/bin:/bin LANG=C.UTF-8, every output named relatively, every source compiled
# from a relative path (the IPE events record the source file names); the outputs are searched
# for machine paths and environment names at the end.
set -euo pipefail

GSP_COMMIT=5f68117cdfb92aa66c255eb928199c848e6e60ee   # ghc-stack-profiler 0.4.0.0 (2026-07-14)
GTE_COMMIT=674b3ad9cd3b25eea947030e877a63419f2c7764   # ghc-trace-events
MAX_ATTEMPTS=5
MAX_BYTES=1600000
BUILD_NAME=gsp-build   # the build folder, /gsp-build inside the chroot

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SRC="$ROOT/fixtures/src"
die() { echo "regen-stack-profiler-fixture: $*" >&2; exit 1; }

[ $# -eq 3 ] || die "usage: $0 CHROOT_DIR MIRROR_GSP MIRROR_GTE"
CHROOT=$(cd "$1" && pwd)
GSP_GIT=$(cd "$2" && pwd)
GTE_GIT=$(cd "$3" && pwd)
[ "$(id -u)" -eq 0 ] || die "must run as root (chroot)"
[ -x "$CHROOT/usr/bin/ghc" ] || die "$CHROOT has no /usr/bin/ghc (see ../shared/newer-ghc.md)"
git --git-dir="$GSP_GIT" cat-file -e "$GSP_COMMIT^{commit}" 2>/dev/null \
  || die "$GSP_GIT has no commit $GSP_COMMIT (fetch github.com/well-typed/ghc-stack-profiler)"
git --git-dir="$GTE_GIT" cat-file -e "$GTE_COMMIT^{commit}" 2>/dev/null \
  || die "$GTE_GIT has no commit $GTE_COMMIT (fetch github.com/maoe/ghc-trace-events)"
for f in "$SRC/stack_profiler/Main.hs" "$SRC/stack_profiler/CountEvents.hs" "$SRC/check/ShowEventlog.hs"; do
  [ -f "$f" ] || die "$f is missing"
done
mountpoint -q "$CHROOT/proc" || mount --bind /proc "$CHROOT/proc"

in_chroot() {  # in_chroot COMMAND: runs COMMAND with bash in the chroot's build folder
  chroot "$CHROOT" env -i PATH=/usr/bin:/bin LANG=C.UTF-8 HOME=/nonexistent bash -c "cd /$BUILD_NAME && $1"
}

VERSION=$(chroot "$CHROOT" ghc --numeric-version)
case "$VERSION" in 9.10.*) ;; *) die "GHC $VERSION: this script is written for GHC 9.10 (ghc-stack-profiler needs >= 9.10; the build below is the one for < 9.12)" ;; esac
[ -n "$(chroot "$CHROOT" ghc-pkg --simple-output list async 2>/dev/null)" ] || die "the chroot lacks async (apt-get install libghc-async-dev)"
[ -n "$(chroot "$CHROOT" ghc-pkg --simple-output list ghc-events 2>/dev/null)" ] || die "the chroot lacks ghc-events (apt-get install libghc-ghc-events-dev)"
OUT="$ROOT/fixtures/ghc-$VERSION"
mkdir -p "$OUT"

# ---------------------------------------------------------------------------
# Sources into the chroot

BUILD="$CHROOT/$BUILD_NAME"
rm -rf "$BUILD"
mkdir -p "$BUILD/gsp" "$BUILD/gte" "$BUILD/check" "$BUILD/gen/GHC/Internal/InfoProv/Types"
git --git-dir="$GSP_GIT" archive "$GSP_COMMIT" | tar -x -C "$BUILD/gsp"
git --git-dir="$GTE_GIT" archive "$GTE_COMMIT" | tar -x -C "$BUILD/gte"
cp "$SRC/stack_profiler/Main.hs" "$BUILD/Main.hs"
cp "$SRC/stack_profiler/CountEvents.hs" "$SRC/check/ShowEventlog.hs" "$BUILD/check/"

# ---------------------------------------------------------------------------
# Build (the cabal files' settings for GHC 9.10, by hand: the chroot is offline)

RTS_H=$(in_chroot "ls /usr/lib/ghc/lib/*/rts-*/include/Rts.h | head -n 1")
[ -n "$RTS_H" ] || die "no Rts.h under the chroot's /usr/lib/ghc"
RTSINC=$(dirname "$RTS_H")
echo "== hsc2hs GHC/Internal/InfoProv/Types/Compat.hsc"
in_chroot "hsc2hs -I$RTSINC '--cflag=-DMIN_VERSION_ghc_internal(a,b,c)=0' \
  -o gen/GHC/Internal/InfoProv/Types/Compat.hs \
  gsp/ghc-stack-profiler/src/GHC/Internal/InfoProv/Types/Compat.hsc"
# -finfo-table-map -fdistinct-constructor-tables: IPE events (one per info table, at start-up)
# for the info tables the samples name; -fno-omit-yields is in Main.hs itself.
echo "== building stack-profiler (GHC $VERSION, ghc-stack-profiler ${GSP_COMMIT:0:7})"
in_chroot "ghc --make -v0 -O1 -threaded -rtsopts -finfo-table-map -fdistinct-constructor-tables \
  -XGHC2021 -XDeriveGeneric -XDerivingStrategies -XDuplicateRecordFields -XLambdaCase \
  -XBangPatterns -XNamedFieldPuns -XNoImportQualifiedPost -XPatternSynonyms -XViewPatterns \
  -DUSE_GHC_TRACE_EVENTS -package async -package stm -package ghc-heap -package ghc-internal \
  -package binary -package bytestring -package containers -package text -package transformers \
  -igen -igsp/ghc-stack-profiler/src -igsp/ghc-stack-profiler-core/src -igte/src \
  -outputdir obj -o stack-profiler Main.hs \
  gsp/ghc-stack-profiler/cbits/Stack.cmm gsp/ghc-stack-profiler/cbits/Stack_c.c gte/cbits/tracing.c"
echo "== building the ghc-events printers"
in_chroot "ghc -v0 -O1 -package ghc-events -outputdir obj-show -o show-eventlog check/ShowEventlog.hs"
in_chroot "ghc -v0 -O1 -package ghc-events -outputdir obj-count -o count-events check/CountEvents.hs"
GHC_EVENTS=$(in_chroot "ghc-pkg --simple-output field ghc-events version" | head -n 1)

# ---------------------------------------------------------------------------
# Run
# -N3 on purpose, also on a 2-core machine: the sampler is a Haskell thread, and with two
# capabilities busy with the collatz and sieve threads it would wait its turn in their run
# queues (far fewer samples).

ok=0
for attempt in $(seq 1 "$MAX_ATTEMPTS"); do
  echo "== running ./stack-profiler +RTS -N3 -l (attempt $attempt)"
  in_chroot "rm -f stack-profiler.eventlog stack-profiler.S.txt && \
    ./stack-profiler +RTS -N3 -l -olstack-profiler.eventlog -Sstack-profiler.S.txt -RTS >/dev/null"
  in_chroot "./count-events stack-profiler.eventlog" >"$BUILD/counts.txt" \
    || die "ghc-events $GHC_EVENTS cannot decode the eventlog"
  size=$(stat -c %s "$BUILD/stack-profiler.eventlog")
  if ! grep -q '^  0xffcb:' "$BUILD/counts.txt"; then
    echo "   no 0xFFCB (chunked) sample this time; again"
  elif [ "$size" -gt "$MAX_BYTES" ]; then
    echo "   $size bytes (more than $MAX_BYTES); again"
  else
    ok=1
    break
  fi
done
[ "$ok" -eq 1 ] || die "no run in $MAX_ATTEMPTS gave a chunked sample within $MAX_BYTES bytes"

rm -f "$OUT"/stack-profiler.*
cp "$BUILD/stack-profiler.eventlog" "$BUILD/stack-profiler.S.txt" "$OUT/"
in_chroot "./show-eventlog stack-profiler.eventlog" | gzip -9n >"$OUT/stack-profiler.ghc-events.txt.gz"
written=(stack-profiler.eventlog stack-profiler.S.txt stack-profiler.ghc-events.txt.gz)

# ---------------------------------------------------------------------------
# Privacy: no machine paths, user names or environment in what is committed.

PATTERNS=(/tmp /work /root /home /var/tmp /usr/local /nonexistent "HOME=" "USER=" "LOGNAME=" "PWD="
          "$ROOT" "$CHROOT" "$GSP_GIT" "$GTE_GIT")
HOST=$(hostname 2>/dev/null || true)
[ -n "$HOST" ] && [ "${#HOST}" -ge 4 ] && PATTERNS+=("$HOST")
bad=0
for f in "${written[@]}"; do
  for p in "${PATTERNS[@]}"; do
    if case "$f" in *.gz) gzip -dc "$OUT/$f" ;; *) cat "$OUT/$f" ;; esac | grep -a -F -q -- "$p"; then
      echo "regen-stack-profiler-fixture: $f contains '$p'" >&2
      bad=1
    fi
  done
done
[ "$bad" -eq 0 ] || die "private data found in the fixtures (see above)"

# ---------------------------------------------------------------------------
echo "== GHC $VERSION, ghc-events $GHC_EVENTS; events in stack-profiler.eventlog:"
cat "$BUILD/counts.txt"
for f in "${written[@]}"; do
  printf '  %-36s %10d bytes\n' "$f" "$(stat -c %s "$OUT/$f")"
done
