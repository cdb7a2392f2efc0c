#!/usr/bin/env bash
# Builds eventlog2fxprof and runs the whole test suite: the normal build, then the release
# build checked to write the same profiles (tools/build-release.sh), then an
# AddressSanitizer + UndefinedBehaviorSanitizer build of the same tests, then a
# ThreadSanitizer build of the suites whose code runs threads (the prefetching reader and its
# split census, the conversions the GC, threading and pass tests make, the parallel gzip sink).
# Works whatever was configured before (tools/quickstart.sh configures build/ without tests:
# the tests are switched back on here). Tests that need ../shared (upstream ghc-events data)
# report SKIP without it.
set -euo pipefail
cd "$(dirname "$0")/.."

tools/install-deps.sh --with-clang --with-ghc

jobs=$(nproc)

# Sanitizers slow some suites 10-100x (TSan: the spill-store tests ~60 s on two busy cores);
# meson's per-test timeouts are scaled per stage so a slow machine fails on defects, not time.
stage() {  # stage NAME SECONDS_START
  echo "== stage $1 took $(($(date +%s) - $2)) s; disk free: $(df -h --output=avail . | tail -1 | tr -d ' ') =="
}

# configure BUILD_DIR [meson setup options...]: set up, or make sure an existing set-up builds tests.
configure() {
  local dir=$1
  shift
  if [[ -f $dir/build.ninja ]]; then
    # Regenerated now, not at the next build: `meson compile TARGET` looks targets up in it.
    meson setup --reconfigure "$dir" -Dtests=true "$@"
  else
    meson setup "$dir" "$@"
  fi
}

start=$(date +%s)
configure build
meson compile -C build -j "$jobs"
meson test -C build --print-errorlogs --num-processes "$jobs" --timeout-multiplier 4
stage normal "$start"

if [[ "${EL2FX_SKIP_RELEASE:-0}" != "1" ]]; then
  start=$(date +%s)
  # The build users get (tools/build-release.sh: LTO, and profile-guided with gcc) must write
  # what the tested build writes: every fixture's profiles under five option sets, summary and
  # dump (tools/convert-fixtures.sh), compared field by field.
  tools/build-release.sh build-release
  compared=$(mktemp -d)
  tools/convert-fixtures.sh build/src/cli/eventlog2fxprof "$compared/tested"
  tools/convert-fixtures.sh build-release/src/cli/eventlog2fxprof "$compared/release"
  tools/compare-profiles.py "$compared/tested" "$compared/release"
  rm -rf "$compared"
  stage release "$start"
fi

if [[ "${EL2FX_SKIP_SANITIZERS:-0}" != "1" ]]; then
  start=$(date +%s)
  # -g1: line tables, all a sanitizer's report needs; full debug info would take gigabytes more.
  CXX=clang++ configure build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug \
    -Dcpp_args=-g1
  meson compile -C build-asan -j "$jobs"
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
    meson test -C build-asan --print-errorlogs --num-processes "$jobs" --timeout-multiplier 10
  stage asan+ubsan "$start"

  start=$(date +%s)
  configure build-tsan -Db_sanitize=thread -Dbuildtype=debugoptimized -Dcpp_args=-g1
  # gc, threading, pass: whole conversions of the fixtures (the reader's worker threads beside
  # the analyses); gc's summary tests also run the binary. run: the census from the blocks,
  # whose shares the index's two checking threads hand each other.
  meson compile -C build-tsan -j "$jobs" eventlog_tests fxprof_tests gc_tests threading_tests pass_tests \
    run_tests src/cli/eventlog2fxprof
  TSAN_OPTIONS=halt_on_error=1 meson test -C build-tsan --no-rebuild --print-errorlogs \
    --num-processes "$jobs" --timeout-multiplier 20 eventlog gc threading pass run
  # fxprof: its threads are the gzip sink's; the spill suite runs on one thread and took half
  # the fxprof suite's time under TSan. (Spilled tables read back by the sink's two threads are
  # segmented_gzip_writer's: its larger profile outgrows the tables' memory budget.)
  TSAN_OPTIONS=halt_on_error=1 meson test -C build-tsan --no-rebuild --print-errorlogs \
    --timeout-multiplier 20 --test-args=--run_test=!spill fxprof
  stage tsan "$start"
fi
