#!/usr/bin/env bash
# Regenerate the fixtures of `compare` in fixtures/compare/: the same program (fixtures/src/alloc.hs)
# run twice with a 256 kB allocation area (-A256k) and twice with 1 MB (-A1m), on one
# capability, with a -hT heap profile, each with the runtime's own +RTS -s report beside it.
# The one known difference: a smaller allocation area means more minor collections and more
# bytes copied, for the same allocation.
#
# Usage: tools/regen-compare-fixtures.sh
# Needs GHC (9.0.2 made the committed files; tools/regen-fixtures.sh says what to install).
# As there, the program is built from relative names and run from a temporary directory with a
# clean environment, so that no machine path ends up in the files; checked at the end.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SRC="$ROOT/fixtures/src"
OUT="$ROOT/fixtures/compare"
CLEAN_ENV=(env -i PATH=/usr/bin:/bin LANG=C.UTF-8)

command -v ghc >/dev/null 2>&1 || { echo "regen-compare-fixtures: ghc not found" >&2; exit 1; }
WORK=$(mktemp -d "${TMPDIR:-/tmp}/regen-compare.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/run" "$WORK/obj" "$OUT"

echo "== building alloc (-threaded -eventlog)"
( cd "$SRC" && ghc -v0 -O1 -rtsopts -threaded -eventlog -outputdir "$WORK/obj" -o "$WORK/run/alloc" alloc.hs )

FILES=()
for area in 256k 1m; do
  for n in 1 2; do
    name="alloc-A$area-$n"
    echo "== running ./alloc 30000 +RTS -N1 -A$area -hT -i0.02 -l -ol$name.eventlog -s$name.S.txt -RTS"
    ( cd "$WORK/run" && "${CLEAN_ENV[@]}" ./alloc 30000 +RTS -N1 "-A$area" -hT -i0.02 -l "-ol$name.eventlog" \
        "-s$name.S.txt" -RTS >/dev/null )
    cp "$WORK/run/$name.eventlog" "$WORK/run/$name.S.txt" "$OUT/"
    FILES+=("$name.eventlog" "$name.S.txt")
  done
done

bad=0
for f in "${FILES[@]}"; do
  for p in /tmp /work /root /home "HOME=" "USER=" "$WORK" "$ROOT"; do
    if grep -a -F -q -- "$p" "$OUT/$f"; then
      echo "regen-compare-fixtures: $f contains '$p'" >&2
      bad=1
    fi
  done
done
[ "$bad" -eq 0 ] || exit 1
ls -l "${FILES[@]/#/$OUT/}"
