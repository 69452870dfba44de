#!/usr/bin/env bash
# Installs the Debian packages Pearl needs (only those missing) and builds
# Pearl with CMake + Ninja.
#
#   tools/setup.sh [--sanitize]
#
# Environment: PEARL_BUILD_DIR (default: build, or build-sanitize with
# --sanitize), PEARL_CMAKE_ARGS (extra CMake arguments).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sanitize=OFF
default_build="$root/build"
if [ "${1:-}" = "--sanitize" ]; then
  sanitize=ON
  default_build="$root/build-sanitize"
fi
build=${PEARL_BUILD_DIR:-$default_build}

packages=(cmake ninja-build gcc g++ python3
          llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools libpolly-22-dev
          clang-22 libomp-22-dev gnuplot-nox python3-numpy libopenblas-dev
          libsqlite3-dev libopenmpi-dev openmpi-bin)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "pearl: installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
fi

mkdir -p "$build"
# shellcheck disable=SC2086
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DPEARL_SANITIZE=$sanitize ${PEARL_CMAKE_ARGS:-} > "$build/configure.log" 2>&1 ||
  { cat "$build/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)"
