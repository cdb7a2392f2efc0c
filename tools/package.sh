#!/usr/bin/env bash
# Builds a release eventlog2fxprof and packs it twice, with one layout:
#   dist/eventlog2fxprof_VERSION_ARCH.deb           a Debian binary package (dpkg -i / apt install ./…)
#   dist/eventlog2fxprof-VERSION-linux-ARCH.tar.gz  the same files under bin/ and share/, for other
#                                                   Linux systems (tar -C /usr/local --strip-components=1 -xzf …)
# The program goes to /usr/bin, its man page to /usr/share/man/man1, the bash, zsh and fish
# completions where those shells look (doc/meson.build), the README, the licence and the Debian
# copyright file to /usr/share/doc/eventlog2fxprof/. The .deb's Depends come from the libraries
# the program links (dpkg-shlibdeps). tools/test-package.sh installs the .deb in a clean chroot.
# usage: tools/package.sh [OUTPUT_DIR]   (default: dist/; build directory: build-package/)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$(realpath -m "${1:-dist}")
build=build-package

tools/install-deps.sh --with-packaging

# The version: meson's, with the commit appended when this is not a tagged release
# (0.1.0+git20261127.fa6c1e7), so that two builds of different commits never share one.
version=$(sed -nE "s/^ *version *: *'([^']+)'.*/\1/p" meson.build | head -n1)
[[ -n $version ]] || { echo "package.sh: no version in meson.build" >&2; exit 1; }
if git rev-parse --git-dir >/dev/null 2>&1 && ! git describe --tags --exact-match >/dev/null 2>&1; then
  version+="+git$(git log -1 --format=%cd --date=format:%Y%m%d).$(git rev-parse --short HEAD)"
fi
# Timestamps in the packages: the commit's, so that the same commit packs the same bytes (with
# EL2FX_PGO=off: a profile-guided program's code can differ slightly from one training to the next).
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
arch=$(dpkg --print-architecture)

if [[ -f $build/build.ninja ]]; then
  meson configure "$build" -Dbuildtype=release -Dtests=false -Dprefix=/usr
fi
# The release build users should run (profile-guided with gcc; EL2FX_PGO=off leaves that out,
# for a build whose machine code does not depend on the training runs' timing).
tools/build-release.sh "$build" -- -Dprefix=/usr

stage=$(mktemp -d "${TMPDIR:-/tmp}/el2fx-package-XXXXXX")
trap 'rm -rf "$stage"' EXIT
pkg=$stage/eventlog2fxprof
meson install -C "$build" --no-rebuild --skip-subprojects --quiet --destdir "$pkg"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$pkg/usr/bin/eventlog2fxprof"
gzip -9n "$pkg/usr/share/man/man1/eventlog2fxprof.1"
doc=$pkg/usr/share/doc/eventlog2fxprof
install -d "$doc"
install -m 644 README.md LICENSE "$doc/"
install -m 644 tools/package/copyright "$doc/copyright"
# Files as dpkg would make them: directories 755, files 644, the program 755.
find "$pkg" -type d -exec chmod 755 {} +
find "$pkg" -type f -exec chmod 644 {} +
chmod 755 "$pkg/usr/bin/eventlog2fxprof"

# Depends: the packages of the shared libraries the program links, with the versions their
# symbols need (libc6, libstdc++6, libgcc-s1, zlib1g, libisal2 when built with ISA-L).
shlibs=$stage/shlibs
install -d "$shlibs/debian"
printf 'Source: eventlog2fxprof\n\nPackage: eventlog2fxprof\nArchitecture: any\n' >"$shlibs/debian/control"
depends=$(cd "$shlibs" && dpkg-shlibdeps -O -e"$pkg/usr/bin/eventlog2fxprof" 2>/dev/null |
  sed -n 's/^shlibs:Depends=//p')
[[ -n $depends ]] || { echo "package.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

install -d "$pkg/DEBIAN"
cat >"$pkg/DEBIAN/control" <<CONTROL
Package: eventlog2fxprof
Version: $version
Architecture: $arch
Maintainer: the eventlog2fxprof authors <eventlog2fxprof@invalid>
Installed-Size: $(du -sk --exclude=DEBIAN "$pkg" | cut -f1)
Depends: $depends
Section: devel
Priority: optional
Description: convert GHC eventlogs into Firefox Profiler profiles
 eventlog2fxprof turns the eventlog a Haskell program writes with +RTS -l
 into a profile for the Firefox Profiler: capabilities and Haskell threads
 as tracks, GC and scheduling as markers, heap statistics as counters,
 cost-centre stacks as call stacks. It also records programs (record),
 attaches to running ones (attach), serves profiles to the profiler (serve)
 and prints eventlogs and their +RTS -s statistics (dump, summary).
CONTROL
(cd "$pkg" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$pkg/DEBIAN/md5sums"
chmod 644 "$pkg/DEBIAN/control" "$pkg/DEBIAN/md5sums"

# dpkg-deb takes the files' own times: the commit's, as for the tarball.
find "$pkg" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

install -d "$out"
deb=$out/eventlog2fxprof_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$deb" >/dev/null

# The tarball: the same files with /usr taken off, and a note of the libraries it needs.
rm -rf "$pkg/DEBIAN"
top=eventlog2fxprof-$version-linux-$(uname -m)
mv "$pkg/usr" "$stage/$top"
{
  echo "eventlog2fxprof $version for Linux ($(uname -m))"
  echo
  echo "Install under /usr/local (or any prefix):"
  echo "  tar -C /usr/local --strip-components=1 -xzf $top.tar.gz"
  echo
  echo "It needs these shared libraries (Debian packages: $depends):"
  objdump -p "$stage/$top/bin/eventlog2fxprof" | sed -n 's/^ *NEEDED */  /p'
} >"$stage/$top/share/doc/eventlog2fxprof/INSTALL"
chmod 644 "$stage/$top/share/doc/eventlog2fxprof/INSTALL"
tarball=$out/$top.tar.gz
tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" -cf - "$top" |
  gzip -9n >"$tarball"

echo "Depends: $depends"
echo "$deb"
echo "$tarball"
