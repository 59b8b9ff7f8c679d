#!/usr/bin/env bash
# What cache_aware's plans cost a fill: stock db_bench (Debian's, with
# libsstfilter_rocksdb.so preloaded) fills --num random keys into many small
# tables (16 KiB memtables and tables, a 1 MiB block cache holding index and
# filter blocks) under two policies, runs alternating, and prints each
# run's fill time (db_bench's micros/op), the medians and their ratio.
#
#   bench/plan_cost.sh [BUILD_DIR] [RUNS] [NUM]
#
# BUILD_DIR: a build of this checkout (default build/); RUNS per policy
# (default 3); NUM keys (default 100000, about 500 tables). The policies:
# PLAN_COST_BASE (default sstfilter.bloom:10:banded, the plain encoding)
# and PLAN_COST_PLANNED (default sstfilter.bloom:10:banded:optimize_levels:cache_aware).
#
# PLAN_COST_PRELOAD=N: a tree of many more tables. N random keys are first
# written once, under the plain policy, into 8 KiB tables from 256 KiB
# memtables with dynamic level bytes (sstfilter_census_cost's setup: 2.5M
# keys make about 20,000 tables, a deep tree a fill from empty would take
# most of an hour to compact); each run then writes NUM more keys into a
# copy of that tree (db_bench's overwrite, keys over the preloaded range), so what is timed is flushes and compactions among
# tens of thousands of tables, each output table planned.
set -euo pipefail
# shellcheck source=bench/stock/stock_lib.sh
. "$(dirname "$0")/stock/stock_lib.sh"
build="${1:-build}" runs="${2:-3}" num="${3:-100000}" preload="${PLAN_COST_PRELOAD:-0}"
base="${PLAN_COST_BASE:-sstfilter.bloom:10:banded}"
planned="${PLAN_COST_PLANNED:-sstfilter.bloom:10:banded:optimize_levels:cache_aware}"
plugin="$build/table/rocksdb/libsstfilter_rocksdb.so"
db_bench="$(command -v db_bench)" || { echo "plan_cost: no db_bench (Debian's rocksdb-tools)" >&2; exit 2; }
[ -f "$plugin" ] || { echo "plan_cost: no $plugin: build this checkout first" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The tree's shape: many small tables.
if [ "$preload" -gt 0 ]; then
  shape="write_buffer_size=262144
  target_file_size_base=8192
  max_bytes_for_level_base=81920
  level_compaction_dynamic_level_bytes=true"
  db_shape="max_open_files=2000"
else
  shape="write_buffer_size=16384
  target_file_size_base=16384
  max_bytes_for_level_base=65536"
  db_shape=""
fi

# options <file> <filter_policy>
options() {
  { options_head; cat <<OPT; } > "$1"
  $db_shape
[CFOptions "default"]
  table_factory=BlockBasedTable
  $shape
  compression=kNoCompression
[TableOptions/BlockBasedTable "default"]
  filter_policy=$2
  cache_index_and_filter_blocks=true
  block_cache=1048576
  format_version=5
OPT
}
options "$work/base.opt" "$base"
options "$work/planned.opt" "$planned"

# fill <options>: the fill's micros per op (into a copy of the preloaded
# tree, if any).
fill() {
  rm -rf "$work/db"
  local args=(--benchmarks=fillrandom --num="$num")
  if [ "$preload" -gt 0 ]; then
    cp -a "$work/tree" "$work/db"
    args=(--use_existing_db=1 --benchmarks=overwrite --num="$preload" --writes="$num")
  fi
  LD_PRELOAD="$plugin" "$db_bench" --options_file="$1" --db="$work/db" "${args[@]}" \
    --value_size=100 --threads=1 --seed=1 2>&1 |
    awk '$1 == "fillrandom" || $1 == "overwrite" { print $3; found = 1 } END { exit !found }' \
    || { echo "plan_cost: db_bench failed with $1" >&2; exit 1; }
}
if [ "$preload" -gt 0 ]; then
  LD_PRELOAD="$plugin" "$db_bench" --options_file="$work/base.opt" --db="$work/tree" \
    --benchmarks=fillrandom,waitforcompaction --num="$preload" --value_size=100 --threads=1 \
    --seed=2 >/dev/null 2>&1 || { echo "plan_cost: db_bench could not preload the tree" >&2; exit 1; }
  echo "preloaded: $(ls "$work/tree" | grep -c '\.sst$') tables from $preload keys"
fi
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

: > "$work/base" && : > "$work/planned"
for ((r = 1; r <= runs; r++)); do
  b="$(fill "$work/base.opt")"; echo "$b" >> "$work/base"
  p="$(fill "$work/planned.opt")"; echo "$p" >> "$work/planned"
  printf 'run %d: %s %s us/op, %s %s us/op\n' "$r" "$base" "$b" "$planned" "$p"
done
mb="$(median < "$work/base")" mp="$(median < "$work/planned")"
printf 'median of %d: %s %s us/op, %s %s us/op: %.2fx\n' "$runs" "$base" "$mb" "$planned" "$mp" \
  "$(awk -v a="$mp" -v b="$mb" 'BEGIN { print a / b }')"
