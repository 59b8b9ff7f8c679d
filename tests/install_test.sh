#!/usr/bin/env bash
# The installed package: `cmake --install` of this build into a temporary
# prefix, then a consumer project built against it twice, through
# find_package(sstfilter CONFIG) and through pkg-config (sstfilter.pc); each
# consumer must run and use the filter (tests/install_consumer/consumer.cc;
# the CMake build also has leveldb_consumer.cc, the LevelDB policy: LevelDB
# ships no .pc file, so sstfilter::leveldb is in the CMake package only).
#
# Usage: install_test.sh <sstfilter build dir>
set -euo pipefail
build="$1"
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/cli_test_lib.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

cmake --install "$build" --prefix "$prefix" >"$work/install.log" \
  || { cat "$work/install.log"; fail "cmake --install"; finish; }
for f in lib/cmake/sstfilter/sstfilterConfig.cmake lib/pkgconfig/sstfilter.pc \
         lib/libsstfilter.a lib/libsstfilter_rocksdb_policy.a lib/libsstfilter_rocksdb.so \
         include/sstfilter/table/rocksdb/registration.h include/sstfilter/filter/filter_options.h \
         lib/libsstfilter_leveldb_policy.a include/sstfilter/table/leveldb/leveldb_filter_policy.h; do
  [ -e "$prefix/$f" ] && pass || fail "not installed: $f"
done

echo "== CMake consumer (find_package)"
if cmake -S "$here/install_consumer" -B "$work/cmake_consumer" -DCMAKE_PREFIX_PATH="$prefix" \
     >"$work/cmake.log" 2>&1 && cmake --build "$work/cmake_consumer" >>"$work/cmake.log" 2>&1; then
  check "the CMake consumer runs" "$work/cmake_consumer/consumer" "$work/db_cmake"
  check "the CMake LevelDB consumer runs" "$work/cmake_consumer/leveldb_consumer" "$work/ldb_cmake"
else
  cat "$work/cmake.log"; fail "the CMake consumer does not build"
fi

echo "== pkg-config consumer"
# shellcheck disable=SC2046
if flags="$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs sstfilter)" &&
   g++ -std=c++17 "$here/install_consumer/consumer.cc" -o "$work/pc_consumer" $flags; then
  check "the pkg-config consumer runs" "$work/pc_consumer" "$work/db_pc"
else
  fail "the pkg-config consumer does not build (flags: ${flags:-none})"
fi
finish
