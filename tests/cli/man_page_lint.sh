#!/usr/bin/env bash
# The manual page formats without a warning from groff (bad macros, unknown escapes, lines
# that cannot be broken).
# usage: man_page_lint.sh MANPAGE
set -euo pipefail
if ! command -v groff >/dev/null; then
  echo "SKIP: groff is not installed (Debian: groff-base)" >&2
  exit 77
fi
warnings=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$1" 2>&1)
if [[ -n $warnings ]]; then
  echo "$warnings" >&2
  exit 1
fi
echo "$1: no groff warnings"
