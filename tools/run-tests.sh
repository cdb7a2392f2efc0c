#!/usr/bin/env bash
# Builds eventlog2fxprof and runs the whole test suite: the normal build, then an
# AddressSanitizer + UndefinedBehaviorSanitizer build of the same tests, then a
# ThreadSanitizer build of the suites whose code runs threads (the prefetching reader, the
# parallel gzip sink).
# Tests that need ../shared (upstream ghc-events data) skip cleanly without it.
set -euo pipefail
cd "$(dirname "$0")/.."

tools/install-deps.sh --with-clang

jobs=$(nproc)
if [[ ! -f build/build.ninja ]]; then meson setup build; fi
meson compile -C build -j "$jobs"
meson test -C build --print-errorlogs --num-processes "$jobs"

if [[ "${EL2FX_SKIP_SANITIZERS:-0}" != "1" ]]; then
  if [[ ! -f build-asan/build.ninja ]]; then
    CXX=clang++ meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug
  fi
  meson compile -C build-asan -j "$jobs"
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
    meson test -C build-asan --print-errorlogs --num-processes "$jobs"
fi

if [[ "${EL2FX_SKIP_SANITIZERS:-0}" != "1" ]]; then
  if [[ ! -f build-tsan/build.ninja ]]; then
    meson setup build-tsan -Db_sanitize=thread -Dbuildtype=debugoptimized
  fi
  meson compile -C build-tsan -j "$jobs" eventlog_tests fxprof_tests
  TSAN_OPTIONS=halt_on_error=1 meson test -C build-tsan --no-rebuild --print-errorlogs eventlog fxprof
fi
