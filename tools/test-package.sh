#!/usr/bin/env bash
# Checks the Debian package on a clean system: makes a minimal Debian bookworm chroot
# (debootstrap --variant=minbase) from the mirror this machine's apt uses, installs the .deb there
# with apt (so that its Depends resolve from the archive), converts fixtures/concurrency.eventlog
# with the installed command and checks the profile, the man page and the completions.
# Not part of tools/run-tests.sh: it needs root, the network to the Debian mirror, ~300 MB and a
# few minutes (EL2FX_CHROOT_BASE=DIR copies a chroot made earlier by debootstrap instead of making
# one). Exit status 77 (skipped) without root.
# usage: tools/test-package.sh [PACKAGE.deb]   (default: the newest dist/*.deb, made by tools/package.sh if none)
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $(id -u) -ne 0 ]]; then
  echo "test-package.sh: SKIP: needs root (debootstrap, chroot, mount)" >&2
  exit 77
fi
tools/install-deps.sh --with-package-test

deb=${1:-}
if [[ -z $deb ]]; then
  deb=$(ls -t dist/eventlog2fxprof_*.deb 2>/dev/null | head -n1 || true)
  if [[ -z $deb ]]; then
    tools/package.sh
    deb=$(ls -t dist/eventlog2fxprof_*.deb | head -n1)
  fi
fi
[[ -f $deb ]] || { echo "test-package.sh: no such package: $deb" >&2; exit 1; }

# The mirror: the first bookworm source of apt's deb822 list, else of the one-line list.
mirror=${EL2FX_DEBIAN_MIRROR:-}
if [[ -z $mirror && -f /etc/apt/sources.list.d/debian.sources ]]; then
  mirror=$(awk -v RS= '/Suites:[^\n]* bookworm( |\n|$)/' /etc/apt/sources.list.d/debian.sources |
    sed -n 's/^URIs: *\([^ ]*\).*/\1/p' | head -n1)
fi
if [[ -z $mirror && -f /etc/apt/sources.list ]]; then
  mirror=$(awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list)
fi
[[ -n $mirror ]] || { echo "test-package.sh: no bookworm mirror in apt's sources: set EL2FX_DEBIAN_MIRROR" >&2; exit 1; }

chroot_dir=$(mktemp -d "${EL2FX_CHROOT_PARENT:-/var/tmp}/el2fx-chroot-XXXXXX")
cleanup() {
  umount "$chroot_dir/dev/pts" 2>/dev/null || true
  umount "$chroot_dir/proc" 2>/dev/null || true
  # Never remove a tree with something still mounted inside.
  if ! grep -q " $chroot_dir/" /proc/mounts; then rm -rf "$chroot_dir"; fi
}
trap cleanup EXIT

if [[ -n ${EL2FX_CHROOT_BASE:-} ]]; then
  # A copy of a chroot an earlier debootstrap made, left untouched: saves its minutes on reruns.
  echo "== copying the bookworm chroot $EL2FX_CHROOT_BASE into $chroot_dir"
  cp -a "$EL2FX_CHROOT_BASE/." "$chroot_dir/"
else
  echo "== debootstrap bookworm from $mirror into $chroot_dir"
  debootstrap --variant=minbase bookworm "$chroot_dir" "$mirror" >"$chroot_dir.log" 2>&1 ||
    { tail -n 20 "$chroot_dir.log" >&2; exit 1; }
  rm -f "$chroot_dir.log"
fi
cp /etc/resolv.conf "$chroot_dir/etc/resolv.conf"
mount -t proc proc "$chroot_dir/proc"
mount -t devpts devpts "$chroot_dir/dev/pts"  # dpkg's terminal log
# Readable by apt's unprivileged download user.
install -m 644 "$deb" fixtures/concurrency.eventlog "$chroot_dir/tmp/"
in_chroot() { chroot "$chroot_dir" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 "$@"; }

echo "== apt install ./$(basename "$deb")"
in_chroot apt-get update -qq
in_chroot env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "/tmp/$(basename "$deb")"

echo "== the installed command"
in_chroot eventlog2fxprof --version
in_chroot eventlog2fxprof /tmp/concurrency.eventlog -o /tmp/concurrency.json.gz
in_chroot gzip -t /tmp/concurrency.json.gz
in_chroot sh -c 'gzip -dc /tmp/concurrency.json.gz | head -c 200 | grep -q "\"meta\""'
echo "profile: $(stat -c %s "$chroot_dir/tmp/concurrency.json.gz") bytes, a gzipped JSON profile"

failed=0
for f in /usr/bin/eventlog2fxprof /usr/share/man/man1/eventlog2fxprof.1.gz \
  /usr/share/bash-completion/completions/eventlog2fxprof \
  /usr/share/zsh/vendor-completions/_eventlog2fxprof \
  /usr/share/fish/vendor_completions.d/eventlog2fxprof.fish \
  /usr/share/doc/eventlog2fxprof/copyright /usr/share/doc/eventlog2fxprof/README.md \
  /usr/share/doc/eventlog2fxprof/LICENSE; do
  if [[ -f $chroot_dir$f ]]; then echo "installed: $f"; else echo "missing: $f" >&2; failed=1; fi
done
in_chroot dpkg-query -W -f='Depends: ${Depends}\n' eventlog2fxprof
(( failed == 0 )) || exit 1
echo "test-package.sh: PASS: $(basename "$deb") installs on a clean bookworm and converts an eventlog"
