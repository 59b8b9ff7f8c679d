#!/usr/bin/env bash
# The plugin in a stock RocksDB tool: Debian's db_bench, started with
# LD_PRELOAD=libsstfilter_rocksdb.so and an OPTIONS file naming
# filter_policy=sstfilter.bloom:10, must build our filters and answer
# absent keys from them. A control run without the plugin shows the
# difference (RocksDB then drops the unknown policy silently). A bad
# sstfilter.bloom string must stop db_bench with a message naming it.
#
# Usage: stock_db_bench_test.sh <path to libsstfilter_rocksdb.so>
set -euo pipefail
plugin="$1"
db_bench="$(command -v db_bench)" || { echo "FAIL: db_bench not installed (rocksdb-tools)"; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

source "$(dirname "$0")/cli_test_lib.sh"
source "$(dirname "$0")/db_bench_filter_lib.sh"
write_options "$work/OPTIONS" "sstfilter.bloom:10"

run() {  # run <db dir> [env...]
  local db="$1"; shift
  env "$@" "$db_bench" --options_file="$work/OPTIONS" --db="$db" \
    --benchmarks=fillrandom,readmissing --num=50000 --statistics 2>&1
}

out="$(run "$work/db" LD_PRELOAD="$plugin")"
useful="$(ticker rocksdb.bloom.filter.useful "$out")"
positive="$(ticker rocksdb.bloom.filter.full.positive "$out")"
true_positive="$(ticker rocksdb.bloom.filter.full.true.positive "$out")"
grep -E '^readmissing' <<<"$out"
echo "with plugin: useful=$useful positive=$positive true_positive=$true_positive"
status=0
if ! grep -q 'filter_policy=.*sstfilter.bloom:10' "$work"/db/OPTIONS-*; then
  echo "FAIL: the DB's saved OPTIONS does not name sstfilter.bloom:10"; status=1
fi
if [ -z "$useful" ] || [ "$useful" -lt 10000 ]; then
  echo "FAIL: the filter rejected too few absent keys (useful=$useful)"; status=1
fi
# readmissing keys are all absent: every positive is a false positive.
fp_permille=$(( (positive - true_positive) * 1000 / (useful + positive - true_positive) ))
echo "with plugin: FP rate ${fp_permille} per mille"
if [ "$fp_permille" -gt 30 ]; then
  echo "FAIL: FP rate ${fp_permille} per mille is far above the ~10 expected"; status=1
fi

control="$(run "$work/db_control")"
control_useful="$(ticker rocksdb.bloom.filter.useful "$control")"
echo "without plugin: useful=$control_useful"
if [ "$control_useful" != "0" ]; then
  echo "FAIL: control run without the plugin used a filter; test proves nothing"; status=1
fi
[ $status -eq 0 ] && pass || fail "the plugin in stock db_bench (above)"
# A bad sstfilter.bloom string stops db_bench, naming the value.
PRELOAD="$plugin" expect_bad_policies_refused "$db_bench"
finish
