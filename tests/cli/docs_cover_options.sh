#!/usr/bin/env bash
# The man page and the bash, zsh and fish completions must name every command and every option
# the program's parsers define, so that they cannot drift from it. The options are read from the
# program itself: each command's --help, which cxxopts writes from the option definitions, and
# the top-level --help for the commands and the options main() handles (-V, --version).
# usage: docs_cover_options.sh BINARY MANPAGE BASH ZSH FISH
set -euo pipefail
bin=$1 man=$2 bash_file=$3 zsh_file=$4 fish_file=$5

for f in "$bin" "$man" "$bash_file" "$zsh_file" "$fish_file"; do
  [[ -e $f ]] || { echo "missing: $f" >&2; exit 1; }
done

top=$("$bin" --help)
# The commands, as the usage lines name them ("eventlog2fxprof [convert] …", "eventlog2fxprof dump …").
mapfile -t commands < <(grep -oE 'eventlog2fxprof \[?[a-z]+' <<<"$top" | sed -E 's/.* \[?//' | sort -u)
# Options are whole words: -o, --output (not --output-dir).
mapfile -t options < <(
  {
    # main()'s own options, on a usage line of their own: "eventlog2fxprof -V|--version".
    grep -oE -- 'eventlog2fxprof (-[A-Za-z]\|)?--[a-z][a-z0-9-]*' <<<"$top" | sed -E 's/^eventlog2fxprof //' | tr '|' '\n'
    for c in "${commands[@]}"; do
      # cxxopts lists an option as "  -o, --output arg" or "      --interval arg".
      "$bin" "$c" --help | sed -nE 's/^  ((-[A-Za-z]), |    )--([a-z][a-z0-9-]*).*/\2 --\3/p' | tr ' ' '\n'
    done
  } | grep -E '^--?[A-Za-z]' | sort -u
)
if (( ${#commands[@]} < 2 || ${#options[@]} < 10 )); then
  echo "read only ${#commands[@]} commands and ${#options[@]} options from $bin --help: has its layout changed?" >&2
  exit 1
fi
echo "${#commands[@]} commands, ${#options[@]} options: ${commands[*]}"

# The man page in plain text: roff's \- is a hyphen, font changes go.
man_text=$(sed -E 's/\\-/-/g; s/\\f(\[[A-Z]*\]|[A-Z])//g' "$man")
bash_text=$(<"$bash_file")
zsh_text=$(<"$zsh_file")
fish_text=$(<"$fish_file")

missing=0
word() {  # word TEXT WORD: WORD occurs not glued to another option character
  grep -qE -- "(^|[^A-Za-z0-9-])$2([^A-Za-z0-9-]|\$)" <<<"$1"
}
check() {  # check FILE-LABEL TEXT PATTERN DESCRIPTION
  if ! word "$2" "$3"; then
    echo "$1 does not mention $4" >&2
    missing=$((missing + 1))
  fi
}
for c in "${commands[@]}"; do
  for label in man bash zsh fish; do
    text_var=${label}_text
    check "$label" "${!text_var}" "$c" "the command $c"
  done
done
for o in "${options[@]}"; do
  check man "$man_text" "$o" "$o"
  check bash "$bash_text" "$o" "$o"
  check zsh "$zsh_text" "$o" "$o"
  # fish names an option as -l NAME (or -s X), not --NAME.
  if [[ $o == --* ]]; then
    check fish "$fish_text" "-l ${o#--}" "$o (as -l ${o#--})"
  else
    check fish "$fish_text" "-s ${o#-}" "$o (as -s ${o#-})"
  fi
done
if (( missing )); then
  echo "$missing omissions: document the options in doc/eventlog2fxprof.1 and doc/completions/" >&2
  exit 1
fi
echo "the man page and the bash, zsh and fish completions name them all"
