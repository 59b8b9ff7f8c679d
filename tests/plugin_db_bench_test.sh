#!/usr/bin/env bash
# RocksDB built with sstfilter as its plugin (-DROCKSDB_PLUGINS=sstfilter):
# that RocksDB's own db_bench, with no LD_PRELOAD, must accept an OPTIONS
# file naming filter_policy=sstfilter.bloom:10, write sstfilter's filters
# (checked by our SST inspector) and answer absent keys from them (checked
# from its statistics); and a bad sstfilter.bloom string must stop it with a
# message naming the value. Without the registrar RocksDB drops the unknown
# policy silently and both checks fail.
#
# Usage: plugin_db_bench_test.sh <plugin-built db_bench> <sstfilter_sst>
set -euo pipefail
db_bench="$1" sst_tool="$2"
here="$(dirname "$0")"
source "$here/cli_test_lib.sh"
source "$here/db_bench_filter_lib.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
num=50000

write_options "$work/OPTIONS" "sstfilter.bloom:10"
if write_db "$db_bench" "$work/OPTIONS" "$work/db" "$num" >/dev/null; then
  expect_our_filters "$sst_tool" "$work/db"
  expect_filter_answers "$db_bench" "$work/OPTIONS" "$work/db" "$num"
  if grep -q 'filter_policy=.*sstfilter.bloom:10' "$work"/db/OPTIONS-*; then pass
  else fail "the DB's saved OPTIONS does not name sstfilter.bloom:10"; fi
fi
expect_bad_policies_refused "$db_bench"
finish
