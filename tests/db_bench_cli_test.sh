#!/usr/bin/env bash
# sstfilter_db_bench from the outside: db_bench-shaped result lines, a
# comparison table, JSON, and clear refusals of bad flags and of filter
# strings that do not resolve.
# Usage: db_bench_cli_test.sh <path to sstfilter_db_bench>
set -uo pipefail
bench="$1"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
tool="$bench"
source "$(dirname "$0")/cli_test_lib.sh"

out="$("$bench" --filter=sstfilter.bloom:10 --num=20000 --benchmarks=fillrandom,readmissing \
       --json="$work/r.json" 2>/dev/null)"
echo "$out"
check "db_bench result line" grep -qE \
  '^readmissing  : +[0-9]+\.[0-9]{3} micros/op [0-9]+ ops/sec [0-9]+\.[0-9]{3} seconds 20000 operations; \(0 of 20000 found\)$' <<<"$out"
check "fillrandom line" grep -qE '^fillrandom   : +[0-9.]+ micros/op [0-9]+ ops/sec' <<<"$out"
fp="$(sed -nE 's/.*filter fp ([0-9.]+)% .*/\1/p' <<<"$out" | tail -n1)"
check "filter FP reported and plausible ($fp%)" awk -v fp="$fp" 'BEGIN { exit !(fp != "" && fp > 0.1 && fp < 5) }'
check "json written" grep -q '"benchmark":"readmissing"' "$work/r.json"

out="$("$bench" --compare=sstfilter.bloom:10,bloomfilter:10,none --num=5000 \
       --benchmarks=fillseq,readmissing 2>/dev/null)"
check "compare table header" grep -qE '^benchmark +\| sstfilter.bloom:10 +\| bloomfilter:10 +\| none' <<<"$out"
check "compare table row" grep -qE '^readmissing +\|.*x' <<<"$out"

expect_error "did not resolve" --filter=nosuchfilter:10 --num=10
expect_error "bits_per_key=-1 is out of range" --filter=sstfilter.bloom:-1 --num=10
expect_error "did not resolve" --compare=sstfilter.bloom:10,bogus --num=10
expect_error "--num=0" --num=0
expect_error "--key_size=4" --key_size=4
expect_error "unknown benchmark 'readsometimes'" --benchmarks=readsometimes
expect_error "unexpected argument" --num=10 stray
expect_error "Unknown command line flag" --no_such_flag=1
help="$("$bench" --help 2>&1)"
check "--help lists the db_bench flags" grep -qF -- "--partition_index_and_filters (" <<<"$help"

finish
