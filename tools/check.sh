#!/usr/bin/env bash
# The whole test suite: builds Pearl (installing what is missing), runs the
# unit and lit tests, then does the same with ASan+UBSan.
#
#   tools/check.sh [--no-sanitize]
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

run_suite() { # build-dir label
  echo "== pearl: $2 test suite"
  ctest --test-dir "$1" --output-on-failure -j 2
}

"$root/tools/setup.sh"
run_suite "${PEARL_BUILD_DIR:-$root/build}" "regular"
if [ "${1:-}" != "--no-sanitize" ]; then
  PEARL_BUILD_DIR="$root/build-sanitize" "$root/tools/setup.sh" --sanitize
  run_suite "$root/build-sanitize" "ASan+UBSan"
fi
