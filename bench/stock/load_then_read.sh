#!/usr/bin/env bash
# Load, then read, as a new user tries a policy: stock db_bench (Debian's
# 7.8.3) with the plugin preloaded, nothing stated of the Gets to come.
# fillrandom of --num keys (about two thirds distinct), three reopened
# waitforcompaction runs, then for each kind of Get (readmissing: absent
# keys; readrandom: about 63% found; readhalf: readrandom over 1.264x the
# fill's key range, about half found) the device reads per Get: the block
# cache's filter, index and data misses between a run of R and one of 3R
# Gets with the same seed, over 2R. The Gets' seed is not the fill's:
# db_bench seeds a process's first benchmark alike, so readrandom with the
# fill's seed reads the fill's own keys, every one found. Partitioned
# filters and index in db_bench's LRU cache (high priority, top level pinned, 4 KB metadata blocks), 8 MiB
# memtables and tables, dynamic level bytes, direct reads, no compression:
# the RAM-bound setup of docs/results.md#through-stock-db_bench-at-8m-keys.
#
# With LEARN=N, after each kind is measured, a copy of the DB learns it:
# processes of N Gets of that kind (after one overwritten key and a flush:
# the event that gives the census the DB, table/census/rebuild_loop.h) let
# the policy learn the share found and rebuild its tables to it, until a
# process rebuilds nothing (at most LEARN_PASSES); the rewrites' bytes (the
# LOG's "sstfilter: rebuilt" lines) are printed against the DB's table
# bytes and against what the load's flushes and compactions wrote, and the
# copy is measured again.
#
# Usage: load_then_read.sh PLUGIN WORKDIR POLICY... (a policy: a RocksDB
# filter_policy value, "+hits" after it for optimize_filters_for_hits)
# Env: NUM (12000000), READS (100000), CACHE (8388608), KINDS (readmissing
# readrandom readhalf), LEARN (0), LEARN_PASSES (4), LEARN_STATISTICS (1; 0: the
# learning processes keep no statistics, and the census learns the share
# from the filters' answers), REUSE (0; 1: measure the DBs a run left in
# WORKDIR instead of filling them again), KEEP (0; 1: leave each taught copy
# in WORKDIR, as DB.KIND, its LOGs saying what the loop rewrote and why).
# Prints one line per policy and kind.
set -euo pipefail
plugin="$1" work="$2"; shift 2
num="${NUM:-12000000}" reads="${READS:-100000}" cache="${CACHE:-8388608}"
kinds="${KINDS:-readmissing readrandom readhalf}" learn="${LEARN:-0}" passes="${LEARN_PASSES:-4}"
learn_stats=()
[ "${LEARN_STATISTICS:-1}" = 0 ] || learn_stats=(--statistics)
db_bench="$(command -v db_bench)" || { echo "db_bench not installed (rocksdb-tools)" >&2; exit 1; }
# shellcheck source=bench/stock/stock_lib.sh
. "$(dirname "$0")/stock_lib.sh"
mkdir -p "$work"

options() {  # options FILE POLICY HITS
  { options_head; cat <<OPT; } > "$1"
[CFOptions "default"]
  table_factory=BlockBasedTable
  write_buffer_size=8388608
  target_file_size_base=8388608
  max_bytes_for_level_base=33554432
  level_compaction_dynamic_level_bytes=true
  compression=kNoCompression
  optimize_filters_for_hits=$3
[TableOptions/BlockBasedTable "default"]
  filter_policy=$2
  partition_filters=true
  index_type=kTwoLevelIndexSearch
  cache_index_and_filter_blocks=true
  cache_index_and_filter_blocks_with_high_priority=true
  pin_top_level_index_and_filter=true
  metadata_block_size=4096
  format_version=5
OPT
}

fill_seed=11 get_seed=12
bench() {  # bench OPTIONS DB SEED FLAGS...
  local opts="$1" db="$2" seed="$3"; shift 3
  LD_PRELOAD="$plugin" "$db_bench" --options_file="$opts" --db="$db" --cache_size="$cache" \
    --use_direct_reads=1 --seed="$seed" --value_size=100 --key_size=16 --num="$num" "$@" 2>&1
}

ticker() { awk -v name="$1" '$1 == name { print $4 }' <<<"$2"; }

# The db_bench flags of a kind of Get (the last --num given is the one
# db_bench takes).
kind_flags() {  # kind_flags KIND
  case "$1" in
    readhalf) echo "readrandom --num=$((num * 1264 / 1000))" ;;
    *) echo "$1" ;;
  esac
}

# The filter, index and data misses of a run of N Gets of KIND, and how
# many Gets found their key.
misses() {  # misses OPTIONS DB KIND N
  local out
  local flags
  read -r -a flags <<<"$(kind_flags "$3")"
  out="$(bench "$1" "$2" "$get_seed" --use_existing_db=1 --benchmarks="${flags[0]}" --reads="$4" \
    --statistics "${flags[@]:1}")"
  echo "$(ticker rocksdb.block.cache.filter.miss "$out") $(ticker rocksdb.block.cache.index.miss "$out") $(ticker rocksdb.block.cache.data.miss "$out") $(sed -n 's/.*(\([0-9]*\) of [0-9]* found).*/\1/p' <<<"$out" | head -1)"
}


# Processes of LEARN Gets of KIND until one rebuilds nothing.
learn() {  # learn OPTIONS DB KIND
  local before after pass flags
  read -r -a flags <<<"$(kind_flags "$3")"
  for pass in $(seq "$passes"); do
    before="$(rebuilt_bytes "$2")"
    bench "$1" "$2" "$get_seed" --use_existing_db=1 --benchmarks=overwrite,flush,"${flags[0]}" \
      --writes=1 --reads="$learn" "${learn_stats[@]}" "${flags[@]:1}" >/dev/null
    after="$(rebuilt_bytes "$2")"
    echo "  $3: learning pass $pass of $learn Gets: rewrites so far (tables bytes): $after" >&2
    [ "$before" != "$after" ] || break
  done
}

# The reads per Get of KIND on DB over 2R Gets (the misses of 3R less
# those of R), printed after SPEC and KIND and LABEL.
measure() {  # measure SPEC OPTIONS DB KIND LABEL
  local f1 i1 d1 found1 f3 i3 d3 found3
  read -r f1 i1 d1 found1 <<<"$(misses "$2" "$3" "$4" "$reads")"
  read -r f3 i3 d3 found3 <<<"$(misses "$2" "$3" "$4" $((3 * reads)))"
  awk -v p="$1" -v k="$4$5" -v n=$((2 * reads)) -v f=$((f3 - f1)) -v i=$((i3 - i1)) \
    -v d=$((d3 - d1)) -v found=$((found3 - found1)) 'BEGIN { printf \
      "%s %s: %.4f + %.4f + %.4f = %.4f device reads per Get, %.1f%% found\n",
      p, k, f / n, i / n, d / n, (f + i + d) / n, 100 * found / n }'
}

# The bytes a run's flushes and compactions wrote, from its statistics.
written() { awk '/^rocksdb.(flush|compact).write.bytes COUNT/ { n += $4 } END { printf "%.0f\n", n }'; }

for spec in "$@"; do
  policy="${spec%+hits}" hits=false
  [ "$policy" != "$spec" ] && hits=true
  name="$(tr -c 'A-Za-z0-9.\n' _ <<<"$spec")"
  opts="$work/$name.OPTIONS" db="$work/$name.db"
  options "$opts" "$policy" "$hits"
  if [ "${REUSE:-0}" != 1 ] || [ ! -d "$db" ]; then
    rm -rf "$db"
    bench "$opts" "$db" "$fill_seed" --benchmarks=fillrandom --statistics > "$work/$name.fill.log"
    fill_bytes="$(written < "$work/$name.fill.log")"
    for _ in 1 2 3; do
      out="$(bench "$opts" "$db" "$fill_seed" --use_existing_db=1 --benchmarks=waitforcompaction \
        --statistics)"
      fill_bytes=$((fill_bytes + $(written <<<"$out")))
    done
    echo "$fill_bytes" > "$work/$name.written"
  fi
  fill_bytes="$(cat "$work/$name.written" 2>/dev/null || echo 0)"
  plan="$( (grep -h 'cache_aware: a table' "$db"/LOG* 2>/dev/null || true) | tail -1 | sed 's/.*cache_aware: //')"
  [ -z "$plan" ] || echo "$spec: last plan: $plan"
  for kind in $kinds; do
    measure "$spec" "$opts" "$db" "$kind" ""
    [ "$learn" -gt 0 ] || continue
    # Taught on a copy: each kind learns from the DB as the load left it.
    taught="$db.$kind"
    rm -rf "$taught" && cp -r "$db" "$taught"
    learn "$opts" "$taught" "$kind"
    read -r tables bytes <<<"$(rebuilt_bytes "$taught")"
    db_bytes="$(du -cb "$taught"/*.sst | tail -1 | cut -f1)"
    awk -v p="$spec" -v k="$kind" -v t="$tables" -v b="$bytes" -v d="$db_bytes" -v w="$fill_bytes" \
      -v n="$learn" 'BEGIN { printf "%s %s: after %s Gets, %d rewrites wrote %.0f bytes: %.2fx the DB'"'"'s tables, %.2fx what its load'"'"'s flushes and compactions wrote\n",
        p, k, n, t, b, b / d, (w > 0 ? b / w : 0) }'
    [ "$tables" -eq 0 ] || measure "$spec" "$opts" "$taught" "$kind" " after learning"
    [ "${KEEP:-0}" = 1 ] || rm -rf "$taught"
  done
done
