#!/usr/bin/env bash
# Files move between RocksDB versions: a DB written with sstfilter.bloom:10
# by one RocksDB's db_bench is opened read-only by the other's, which must
# find every key and answer absent keys from the filters the first one
# wrote; then the other way round. The OPTIONS use format_version 5, the
# newest RocksDB 7.8 reads (RocksDB's own rule, not sstfilter's).
#
# Usage: cross_version_test.sh <sstfilter_sst> <old db_bench> <old plugin .so
#        to LD_PRELOAD> <new db_bench (sstfilter built in)>
set -euo pipefail
sst_tool="$1" old_bench="$2" old_plugin="$3" new_bench="$4"
here="$(dirname "$0")"
source "$here/cli_test_lib.sh"
source "$here/db_bench_filter_lib.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
num=30000
write_options "$work/OPTIONS" "sstfilter.bloom:10"

old() { PRELOAD="$old_plugin" "$@"; }
new() { PRELOAD="" "$@"; }

# move <writer> <writer bench> <reader> <reader bench>
move() {
  local db="$work/db_$1_to_$3"
  echo "== written by the $1 RocksDB, read by the $3 one"
  if $1 write_db "$2" "$work/OPTIONS" "$db" "$num" >/dev/null; then
    expect_our_filters "$sst_tool" "$db"
    $3 expect_filter_answers "$4" "$work/OPTIONS" "$db" "$num"
  fi
}
move old "$old_bench" new "$new_bench"
move new "$new_bench" old "$old_bench"
finish
