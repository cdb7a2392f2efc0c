#!/usr/bin/env bash
# Installs what is missing, builds eventlog2fxprof, and converts a bundled real
# eventlog into a Firefox Profiler profile, saying where it is and how to open it.
set -euo pipefail
cd "$(dirname "$0")/.."

tools/install-deps.sh
if [[ ! -f build/build.ninja ]]; then meson setup build -Dtests=false; fi
meson compile -C build eventlog2fxprof  # just the program, whatever else build/ is set up for

input=fixtures/concurrency.eventlog
out=build/concurrency.json.gz
build/src/cli/eventlog2fxprof "$input" -o "$out"
echo
echo "Profile: $PWD/$out"
echo "Open https://profiler.firefox.com, choose \"Load a profile from file\" and pick it (or drag it onto the page)."
