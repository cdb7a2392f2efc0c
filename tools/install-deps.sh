#!/usr/bin/env bash
# Installs the Debian packages eventlog2fxprof needs to build and test, if missing.
# Needs root (or sudo) only when something is missing.
set -euo pipefail

packages=(g++ meson ninja-build pkg-config zlib1g-dev libisal-dev rapidjson-dev libcxxopts-dev libboost-test-dev)
# Sanitizer and fuzzer builds use clang with its runtime; the record-ghc tests build their
# fixture programs with GHC (Debian's ghc: ~73 MB download, ~30 s to install; without it they SKIP).
for arg in "$@"; do
  case "$arg" in
    --with-clang) packages+=(clang libclang-rt-dev) ;;
    --with-ghc) packages+=(ghc) ;;
    --with-packaging) packages+=(dpkg-dev) ;;      # tools/package.sh: dpkg-shlibdeps
    --with-package-test) packages+=(debootstrap) ;; # tools/test-package.sh
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "Installing: ${missing[*]}"
sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
