#!/usr/bin/env bash
# `meson install --destdir` of the build directory puts the program, its man page and the bash,
# zsh and fish completions where each system looks for them, and the installed program runs.
# usage: install_layout.sh BUILD_DIR BINDIR MANDIR DATADIR ZSH_COMPLETIONS_DIR (absolute paths)
set -euo pipefail
build=$1 bindir=$2 mandir=$3 datadir=$4 zshdir=$5

if ! command -v meson >/dev/null; then
  echo "SKIP: meson is not on PATH, so the installation cannot be run" >&2
  exit 77
fi

dest=$(mktemp -d "${TMPDIR:-/tmp}/el2fx-install-XXXXXX")
trap 'rm -rf "$dest"' EXIT
# --no-rebuild: meson test has built what the test depends on; a ninja run inside a test
# would race the one that started it.
meson install -C "$build" --no-rebuild --skip-subprojects --quiet --destdir "$dest"

failed=0
expect() {  # expect PATH [-x]
  if [[ ! -f $dest$1 ]]; then
    echo "not installed: $1" >&2
    failed=1
  elif [[ ${2:-} == -x && ! -x $dest$1 ]]; then
    echo "not executable: $1" >&2
    failed=1
  else
    echo "installed: $1"
  fi
}
expect "$bindir/eventlog2fxprof" -x
expect "$mandir/man1/eventlog2fxprof.1"
expect "$datadir/bash-completion/completions/eventlog2fxprof"
expect "$zshdir/_eventlog2fxprof"
expect "$datadir/fish/vendor_completions.d/eventlog2fxprof.fish"
(( failed == 0 )) || { echo "installed files:" >&2; (cd "$dest" && find . -type f) >&2; exit 1; }

"$dest$bindir/eventlog2fxprof" --version
