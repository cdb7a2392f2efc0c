#!/usr/bin/env bash
# Regenerate the eventlog fixtures of a newer GHC (9.6.6 from Debian trixie, 9.10.3 from sid)
# in fixtures/ghc-VERSION/, from the programs in fixtures/src/, built and run inside a chroot
# that has that GHC (../shared/newer-ghc.md says how to make one). Never run by CI or the tests:
# they read the committed fixtures.
#
# Usage: tools/regen-newer-fixtures.sh CHROOT_DIR [NAME...]
#   CHROOT_DIR  a Debian chroot with ghc, ghc-prof, libghc-parallel-{dev,prof} and
#               libghc-ghc-events-dev installed (for the reference texts)
#   NAME        only these fixtures (e.g. ipe-hi heap-hT); default: all of them
# Needs root (chroot). Writes, per fixture NAME: NAME.eventlog, the run's +RTS -S report
# NAME.S.txt (where the run can write one), NAME.prof for time-profiled runs, and
# NAME.ghc-events.txt.gz: what that suite's ghc-events library prints for the eventlog
# (fixtures/src/check/ShowEventlog.hs, the text of `ghc-events show`), for the differential tests.
#
# Privacy: as tools/regen-fixtures.sh: the programs run as ./name from the build folder with
# env -i PATH=/usr/bin:/bin LANG=C.UTF-8, every output named relatively; the outputs are searched
# for machine paths and environment names at the end.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SRC="$ROOT/fixtures/src"
die() { echo "regen-newer-fixtures: $*" >&2; exit 1; }

[ $# -ge 1 ] || die "usage: $0 CHROOT_DIR [NAME...]"
CHROOT=$(cd "$1" && pwd)
shift
[ "$(id -u)" -eq 0 ] || die "must run as root (chroot)"
[ -x "$CHROOT/usr/bin/ghc" ] || die "$CHROOT has no /usr/bin/ghc (see ../shared/newer-ghc.md)"
mountpoint -q "$CHROOT/proc" || mount --bind /proc "$CHROOT/proc"

in_chroot() {  # in_chroot COMMAND: runs COMMAND with bash in the chroot's build folder
  chroot "$CHROOT" env -i PATH=/usr/bin:/bin LANG=C.UTF-8 HOME=/nonexistent bash -c "cd /build && $1"
}

VERSION=$(chroot "$CHROOT" ghc --numeric-version)
case "$VERSION" in 9.6.* | 9.8.* | 9.10.* | 9.12.* | 9.14.*) ;; *) die "GHC $VERSION: this script is for GHC 9.6 and newer" ;; esac
MAJOR=${VERSION%.*}
OUT="$ROOT/fixtures/ghc-$VERSION"
mkdir -p "$OUT"

rm -rf "$CHROOT/build"
mkdir -p "$CHROOT/build/check"
cp "$SRC"/*.hs "$CHROOT/build/"
cp "$SRC/check/ShowEventlog.hs" "$CHROOT/build/check/"

build() {  # build OUTPUT SOURCE GHC-FLAGS...
  local out=$1 src=$2
  shift 2
  echo "== building $out from $src ($*)"
  in_chroot "ghc -v0 -O1 -rtsopts $* -outputdir obj-$out -o $out $src"
}
run() {  # run PROGRAM ARGS...
  echo "== running ./$*"
  in_chroot "./$* >/dev/null"
}

# name | program | runtime options and arguments | what it shows. The program binaries are
# built below; each fixture names its eventlog -olNAME.eventlog and its report -SNAME.S.txt.
FIXTURES=(
  "concurrency|concurrency|+RTS -N2 -l -RTS|every STOP_THREAD status this runtime numbers (throwTo: 18 in 9.10)"
  "throwto|throwto|+RTS -N2 -l -RTS|threads blocked in throwTo (STOP_THREAD status 18)"
  "sparks|sparks|+RTS -N2 -lsgpfu -e64 -RTS|spark events and counters"
  "alloc|alloc|+RTS -N2 -G3 -l -RTS|parallel GC, three generations, heap events"
  "userevents|userevents|+RTS -l -RTS|user messages, markers, binary messages on the non-threaded runtime"
  "nonmoving|alloc|30000 +RTS -N2 -xn -lsgpun -RTS|the non-moving collector and its census layout"
  "profiled|profiled-prof|+RTS -N2 -A4m -p -hc -i0.005 -l -RTS|time profile and -hc heap profile"
  "census-hy|profiled-prof|+RTS -N2 -A4m -hy -i0.005 -l -RTS|a profiled run's heap censuses (its PROF line)"
  "ipe-hi|profiled-ipe|+RTS -N2 -A4m -hi -i0.005 -l -RTS|info-table provenance (IPE) and an -hi heap profile"
  "heap-hT|profiled-plain|+RTS -N2 -A4m -hT -i0.005 -l -RTS|a heap profile of a non-profiled runtime (no PROF line)"
  "ticky|alloc-ticky|20000 +RTS -lT -l -RTS|ticky-ticky counters in the eventlog"
  "flush|concurrency|+RTS -N2 -l --eventlog-flush-interval=0.02 -RTS|buffers flushed every 20 ms"
)
if [ "$MAJOR" != "9.6" ]; then
  FIXTURES+=("era|profiled-prof|+RTS -N2 -A4m -he --automatic-era-increment -i0.005 -l -RTS|era profiling (GHC 9.10)")
fi
if [ $# -gt 0 ]; then
  wanted=" $* "
  kept=()
  for f in "${FIXTURES[@]}"; do case "$wanted" in *" ${f%%|*} "*) kept+=("$f") ;; esac; done
  FIXTURES=("${kept[@]}")
fi

# Build only what the chosen fixtures run.
needs() { local f; for f in "${FIXTURES[@]}"; do [ "$(cut -d'|' -f2 <<<"$f")" = "$1" ] && return 0; done; return 1; }
! needs concurrency || build concurrency concurrency.hs -threaded -feager-blackholing
! needs throwto || build throwto throwto.hs -threaded
! needs sparks || build sparks sparks.hs -threaded
! needs alloc || build alloc alloc.hs -threaded
! needs userevents || build userevents userevents.hs
! needs profiled-prof || build profiled-prof profiled.hs -prof -fprof-auto -threaded
! needs profiled-ipe || build profiled-ipe profiled.hs -threaded -finfo-table-map -fdistinct-constructor-tables
! needs profiled-plain || build profiled-plain profiled.hs -threaded
! needs alloc-ticky || build alloc-ticky alloc.hs -ticky
in_chroot "ghc -v0 -O1 -package ghc-events -outputdir obj-show -o show-eventlog check/ShowEventlog.hs"
GHC_EVENTS=$(in_chroot "ghc-pkg --simple-output field ghc-events version" | head -n 1)

written=()
for f in "${FIXTURES[@]}"; do
  IFS='|' read -r name program args _ <<<"$f"
  # The ticky runtime refuses -S with -lT on some versions ("cannot be used in conjunction").
  report="-S$name.S.txt"
  [ "$name" = ticky ] && report=""
  rts_extra="-ol$name.eventlog $report"
  run "$program ${args/+RTS/+RTS $rts_extra}"
  rm -f "$OUT/$name".*
  cp "$CHROOT/build/$name.eventlog" "$OUT/"
  written+=("$name.eventlog")
  if [ -n "$report" ]; then
    cp "$CHROOT/build/$name.S.txt" "$OUT/"
    written+=("$name.S.txt")
  fi
  case "$args" in *" -p "*)
    cp "$CHROOT/build/$program.prof" "$OUT/$name.prof"
    written+=("$name.prof") ;;
  esac
  in_chroot "./show-eventlog $name.eventlog" | gzip -9n >"$OUT/$name.ghc-events.txt.gz"
done
echo "$GHC_EVENTS" >"$OUT/ghc-events-version.txt"

# Privacy: no machine paths, user names or environment in what is committed.
PATTERNS=(/tmp /work /root /home /var/tmp /usr/local "HOME=" "USER=" "LOGNAME=" "PWD=" "$ROOT" "$CHROOT")
HOST=$(hostname 2>/dev/null || true)
[ -n "$HOST" ] && [ "${#HOST}" -ge 4 ] && PATTERNS+=("$HOST")
bad=0
for f in "${written[@]}"; do
  for p in "${PATTERNS[@]}"; do
    if grep -a -F -q -- "$p" "$OUT/$f"; then
      echo "regen-newer-fixtures: $f contains '$p'" >&2
      bad=1
    fi
  done
done
[ "$bad" -eq 0 ] || die "private data found in the fixtures (see above)"
echo "== GHC $VERSION, ghc-events $GHC_EVENTS: ${#written[@]} files in fixtures/ghc-$VERSION/"
