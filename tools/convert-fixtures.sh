#!/usr/bin/env bash
# Converts every fixture of every GHC (fixtures/ and fixtures/ghc-*/), and the upstream
# ghc-events logs in ../shared when present, with a few option sets (a window among them), and
# writes `dump` and `summary` beside them: the output a change that must not alter profiles is
# compared on (tools/compare-profiles.py OLD_DIR NEW_DIR).
#   tools/convert-fixtures.sh BINARY OUT_DIR
set -uo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: $0 BINARY OUT_DIR" >&2
  exit 2
fi
bin=$(realpath "$1")
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
shopt -s nullglob
for f in "$root"/fixtures/*.eventlog "$root"/fixtures/ghc-*/*.eventlog \
         "$root"/../shared/ghc-events-testdata/*.eventlog; do
  b=$(basename "$f" .eventlog)
  # The same name under fixtures/ghc-X/ is another GHC's log: prefixed with its version.
  case $f in "$root"/fixtures/ghc-*/*) d=$(basename "$(dirname "$f")"); b=${d#ghc-}-$b ;; esac
  for v in "d:" "r:--redact-paths --redact-args" "a:--all-threads --marker-resolution 0 --spark-burst-gap 0" \
           "i:--interval 200us" "w:--from 1ms --to 80ms"; do
    tag=${v%%:*}
    read -r -a opts <<< "${v#*:}"
    "$bin" convert -q "${opts[@]}" -o - "$f" 2> "$out/$b.$tag.err" | gzip -dc > "$out/$b.$tag.json" 2> /dev/null
  done
  "$bin" summary "$f" > "$out/$b.summary.txt" 2>&1
  "$bin" dump "$f" 2> /dev/null | md5sum > "$out/$b.dump.md5"
done
"$bin" convert -q -o - "$root/fixtures/alloc.eventlog" "$root/fixtures/sparks.eventlog" 2> /dev/null |
  gzip -dc > "$out/compare.json"
echo "wrote $(ls "$out" | wc -l) files to $out"
