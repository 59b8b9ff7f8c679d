#!/usr/bin/env bash
# sstfilter_micro_bench from the outside: --help lists our own flags and
# Google Benchmark's, both kinds of flags are accepted, bad ones refused.
# Usage: micro_bench_cli_test.sh <path to sstfilter_micro_bench>
set -uo pipefail
tool="$1"
source "$(dirname "$0")/cli_test_lib.sh"

help="$("$tool" --help 2>&1)"
for flag in bits_per_key filters in_cache_keys out_of_cache_filter_keys out_of_cache_mib min_time; do
  check "--help lists --$flag" grep -qE -- "^ +--$flag \(" <<<"$help"
done
check "--help lists Google Benchmark's flags" grep -qF -- "--benchmark_filter=<regex>" <<<"$help"

out="$("$tool" --benchmark_filter='^Build/sst_leveldb/' --filters=sst_leveldb --min_time=0.01 \
        --in_cache_keys=1000 2>&1)"
check "runs with both kinds of flags" grep -qE '^Build/sst_leveldb/' <<<"$out"
expect_error "unknown filter 'nosuch'" --filters=nosuch
expect_error "Unknown command line flag" --no_such_flag=1

finish
