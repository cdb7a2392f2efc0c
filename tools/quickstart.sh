#!/usr/bin/env bash
# Installs what is missing, builds eventlog2fxprof, and runs it on a bundled real
# eventlog, saying where the output is.
set -euo pipefail
cd "$(dirname "$0")/.."

tools/install-deps.sh
if [[ ! -f build/build.ninja ]]; then meson setup build -Dtests=false; fi
meson compile -C build

input=fixtures/concurrency.eventlog
[[ -f "$input" ]] || input=$(ls fixtures/*.eventlog | head -n 1)
out=build/$(basename "$input" .eventlog).dump.txt
build/src/cli/eventlog2fxprof dump "$input" > "$out"
build/src/cli/eventlog2fxprof dump --stats "$input"
echo
echo "Dumped $input to $out ($(wc -l < "$out") lines)."
