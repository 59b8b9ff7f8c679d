#!/usr/bin/env bash
# The byte budget (budget_mb) on trees with a history, through stock
# db_bench (Debian's 7.8.3) with the plugin preloaded: the live filters'
# bytes against the budget as each history leaves the tree, then after
# processes of Gets that let the census's rebuild loop bring the tables to
# the plan (each: one overwritten key and a flush, the event that gives the
# census the DB, then GETS absent-key Gets; until a process rewrites
# nothing, at most PASSES).
#
# Histories, NUM random keys of 16 + 100 bytes (2 MB memtables and tables,
# 8 MB base level, no compression):
#   young_static  fillrandom with level_compaction_dynamic_level_bytes off,
#                 measured as the fill ends, its compactions still behind;
#   burst         fillrandom and waitforcompaction, then NUM/4 overwrites
#                 with compactions off, the DB closed with them in its WAL
#                 (the next open replays them), compactions off throughout;
#   universal     fillrandom under universal compaction, measured as the
#                 fill ends (db_bench 7.8.3's waitforcompaction can wait
#                 forever there: a tree of exactly the trigger's sorted runs
#                 whose sizes the picker skips stays "compaction pending").
#
# Usage: budget_history.sh PLUGIN WORKDIR
# Env: NUM (1000000), POLICY (sstfilter.bloom:20:cache_local:optimize_levels:
# budget_mb:1.2; its budget_mb is the budget), GETS (1000000), PASSES (6),
# SHAPES (young_static burst universal).
# Prints one line per history and point.
set -euo pipefail
plugin="$1" work="$2"
num="${NUM:-1000000}" gets="${GETS:-1000000}" passes="${PASSES:-6}"
policy="${POLICY:-sstfilter.bloom:20:cache_local:optimize_levels:budget_mb:1.2}"
shapes="${SHAPES:-young_static burst universal}"
budget_mb="$(sed -n 's/.*budget_mb:\([0-9.]*\).*/\1/p' <<<"$policy")"
[ -n "$budget_mb" ] || { echo "POLICY names no budget_mb: $policy" >&2; exit 2; }
db_bench="$(command -v db_bench)" || { echo "db_bench not installed (rocksdb-tools)" >&2; exit 1; }
sst_dump="$(command -v sst_dump)" || { echo "sst_dump not installed (rocksdb-tools)" >&2; exit 1; }
# shellcheck source=bench/stock/stock_lib.sh
. "$(dirname "$0")/stock_lib.sh"
mkdir -p "$work"

options() {  # options FILE STYLE DYNAMIC AUTO_OFF
  { options_head; cat <<OPT; } > "$1"
[CFOptions "default"]
  table_factory=BlockBasedTable
  compaction_style=$2
  level_compaction_dynamic_level_bytes=$3
  disable_auto_compactions=$4
  write_buffer_size=2097152
  target_file_size_base=2097152
  max_bytes_for_level_base=8388608
  compression=kNoCompression
[TableOptions/BlockBasedTable "default"]
  filter_policy=$policy
  format_version=5
OPT
}

# Runs db_bench on DB, its output appended to DB.log (a failed run stops
# the script and names that file).
bench() {  # bench OPTIONS DB SEED FLAGS...
  local opts="$1" db="$2" seed="$3"; shift 3
  LD_PRELOAD="$plugin" "$db_bench" --options_file="$opts" --db="$db" --seed="$seed" \
    --value_size=100 --key_size=16 --num="$num" "$@" >>"$db.log" 2>&1 ||
    { echo "db_bench failed on $db: see $db.log" >&2; exit 1; }
}

# The live tables' filter bytes and entries (sst_dump's properties; RocksDB
# deletes a table's file once it is no longer live).
filters() {  # filters DB
  "$sst_dump" --file="$1" --show_properties --command=none 2>/dev/null | awk '
    /^  filter block size:/ { b += $4 } /^  # entries:/ { e += $3 }
    END { printf "%.0f %.0f\n", b, e }'
}

report() {  # report SHAPE POINT DB
  local bytes entries tables
  read -r bytes entries <<<"$(filters "$3")"
  [ "$entries" -gt 0 ] || { echo "sst_dump read no table of $3" >&2; exit 1; }
  read -r tables _ <<<"$(rebuilt_bytes "$3")"
  awk -v s="$1" -v p="$2" -v b="$bytes" -v e="$entries" -v m="$budget_mb" -v t="$tables" 'BEGIN {
    printf "%s, %s: %.0f bytes of filters, %.3fx the budget, %.0f entries at %.2f bits each; %d tables rewritten by the loop\n",
      s, p, b, b / (m * 1048576), e, 8 * b / e, t }'
}

# Processes of GETS absent-key Gets until one rewrites nothing.
learn() {  # learn OPTIONS DB
  local before after
  for _ in $(seq "$passes"); do
    before="$(rebuilt_bytes "$2")"
    bench "$1" "$2" 12 --use_existing_db=1 --benchmarks=overwrite,flush,readmissing --writes=1 \
      --reads="$gets" --statistics
    after="$(rebuilt_bytes "$2")"
    [ "$before" != "$after" ] || break
  done
}

for shape in $shapes; do
  db="$work/$shape.db" opts="$work/$shape.OPTIONS"
  rm -rf "$db" "$db.log"
  case "$shape" in
    young_static)
      options "$opts" kCompactionStyleLevel false false
      bench "$opts" "$db" 11 --benchmarks=fillrandom ;;
    burst)
      options "$opts" kCompactionStyleLevel true false
      bench "$opts" "$db" 11 --benchmarks=fillrandom,waitforcompaction
      options "$opts" kCompactionStyleLevel true true
      bench "$opts" "$db" 13 --use_existing_db=1 --benchmarks=overwrite --writes=$((num / 4)) ;;
    universal)
      options "$opts" kCompactionStyleUniversal false false
      bench "$opts" "$db" 11 --benchmarks=fillrandom ;;
    *) echo "unknown shape $shape" >&2; exit 2 ;;
  esac
  report "$shape" "as left" "$db"
  learn "$opts" "$db"
  report "$shape" "after learning" "$db"
done
