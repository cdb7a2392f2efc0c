#!/usr/bin/env bash
# The release build of eventlog2fxprof a user should run: optimised, linked with link-time
# optimisation, and with gcc also profile-guided (PGO): the program is first built
# instrumented, run on the eventlogs bundled in fixtures/ (tools/pgo-train.sh), then built
# again from what those runs counted (which branches are taken, which calls are hot). The
# profiles it writes are the same; only the machine code's layout and inlining change.
#
#   tools/build-release.sh [BUILD_DIR] [-- MESON_SETUP_OPTION...]
#
# BUILD_DIR (relative to the checkout, or absolute) defaults to build-release. It is set up
# (--buildtype=release -Dtests=false, and the options after --) if it is not a Meson build
# directory yet; else it is made a release build with the options after --, its other options
# kept. The training is done again only when the sources, build files, training, bundled
# eventlogs, compiler or build options changed since the last one (BUILD_DIR/pgo-trained, a
# digest of them all); otherwise this is an incremental build. With a compiler other than gcc,
# or EL2FX_PGO=off, it is a release build without PGO.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build-release
if [[ $# -gt 0 && $1 != -- ]]; then build=$1; shift; fi
[[ ${1:-} == -- ]] && shift
setup_options=("$@")

if [[ -f $build/build.ninja ]]; then
  meson configure "$build" -Dbuildtype=release "${setup_options[@]}" >/dev/null
else
  meson setup "$build" --buildtype=release -Dtests=false "${setup_options[@]}"
fi

# The C++ compiler the build directory uses (from its targets: this Meson has no --compilers),
# and whether it is gcc (clang defines __GNUC__ too).
cxx=$(meson introspect "$build" --targets | python3 -c '
import json, sys
for target in json.load(sys.stdin):
    for source in target["target_sources"]:
        if source.get("language") == "cpp":
            print(" ".join(source["compiler"])); sys.exit()')
read -r -a cxx_command <<<"$cxx"
macros=$(echo | "${cxx_command[@]}" -dM -E -x c++ - 2>/dev/null || true)
if [[ $macros != *__GNUC__* || $macros == *__clang__* || ${EL2FX_PGO:-on} == off ]]; then
  meson configure "$build" -Db_pgo=off >/dev/null
  meson compile -C "$build"
  exit 0
fi

# What a training profile is valid for: every source and build file, the training and its
# eventlogs, the compiler and the build's options.
digest() {
  {
    find src tools fixtures subprojects meson.build meson_options.txt -type f \
      \( -name '*.cpp' -o -name '*.hpp' -o -name '*.in' -o -name 'meson*' -o -name '*.sh' -o -name '*.wrap' \
      -o -name '*.eventlog' \) -print0 | sort -z | xargs -0 sha1sum
    "${cxx_command[@]}" --version 2>/dev/null | head -n1
    meson introspect "$build" --buildoptions |
      python3 -c 'import json,sys; print(sorted((o["name"], str(o["value"])) for o in json.load(sys.stdin) if o["name"] != "b_pgo"))'
  } | sha1sum | cut -d' ' -f1
}
stamp=$build/pgo-trained
wanted=$(digest)
if [[ -f $stamp && $(cat "$stamp") == "$wanted" ]]; then
  meson configure "$build" -Db_pgo=use >/dev/null
  meson compile -C "$build"
  exit 0
fi

rm -f "$stamp"
find "$build" -name '*.gcda' -delete
echo "build-release: building an instrumented program to train on the bundled eventlogs"
meson configure "$build" -Db_pgo=generate >/dev/null
meson compile -C "$build" src/cli/eventlog2fxprof tools/eventlog-tile
tools/pgo-train.sh "$build/src/cli/eventlog2fxprof" "$build/tools/eventlog-tile"
echo "build-release: building the program from the training's counts"
meson configure "$build" -Db_pgo=use >/dev/null
meson compile -C "$build"
echo "$wanted" >"$stamp"
