#!/usr/bin/env bash
# Crash test driver: runs N cycles on one DB directory of
#   1. sstfilter_crash --mode=write with a random table configuration
#      (any encoding of the list, as sstfilter_crash --mode=encodings names
#      them; full filter, or partitioned filters with a two-level index),
#      synced writes, flushes and compactions;
#   2. kill -9 after a random 0.05-1.5 s (inside a write, a flush, a
#      compaction, or still inside the open's recovery);
#   3. sstfilter_crash --mode=verify with another random configuration:
#      reopens (recovery), checks every acknowledged key by Get and MultiGet,
#      that no hole is found, and that the filters answered.
# The DB keeps its files across cycles, so files of every format and both
# filter layouts live side by side, as after a real configuration change.
#
#   crash_test.sh SSTFILTER_CRASH_BINARY [CYCLES (default 20)] [WORK_DIR]
#
# CRASH_SEED=n replays a run's random choices (the seed is printed). Exits
# non-zero on any lost key, phantom, verify error or writer error; the work
# directory (DB, logs) is then kept for inspection; a temporary one made
# here is removed after a passing run.
set -euo pipefail

bin="${1:?usage: crash_test.sh SSTFILTER_CRASH_BINARY [CYCLES] [WORK_DIR]}"
cycles="${2:-20}"
[[ "$cycles" =~ ^[1-9][0-9]*$ ]] || { echo "crash_test: CYCLES must be a positive integer, not '$cycles'" >&2; exit 2; }
if [ -n "${3:-}" ]; then work="$3"; mkdir -p "$work"; own_work=no
else work="$(mktemp -d "${TMPDIR:-/tmp}/sstfilter_crash_XXXXXX")"; own_work=yes; fi
seed="${CRASH_SEED:-$(( $(date +%s%N) % 32768 ))}"
RANDOM="$seed"

# The encodings of the list (filter/encodings.h), as the binary names them.
mapfile -t encodings < <("$bin" --mode=encodings)
[ ${#encodings[@]} -gt 0 ] || { echo "crash_test: '$bin --mode=encodings' named none" >&2; exit 2; }

# A random table configuration as a RocksDB option string; sets $config_name.
random_table_options() {
  local format="${encodings[RANDOM % ${#encodings[@]}]}" policy
  # Half the runs size each table's filter per level (the DB always has
  # the census listener that needs).
  if (( RANDOM % 2 )); then format="$format:optimize_levels"; fi
  policy="filter_policy=sstfilter.bloom:10:$format"
  if (( RANDOM % 2 )); then
    config_name="$format/partitioned"
    echo "$policy;partition_filters=true;index_type=kTwoLevelIndexSearch;metadata_block_size=512" > "$work/options"
  else
    config_name="$format/full"
    echo "$policy" > "$work/options"
  fi
}

# The number after " name=" in a verify line (0 when absent: an error line).
field() { local v; v="$(sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<" $2")"; echo "${v:-0}"; }

failures=0 kills=0 verified=0 lost=0 phantoms=0
declare -A landed=()
start_time=$(date +%s.%N)
echo "crash test: $cycles cycles, seed $seed, work dir $work"
for ((cycle = 1; cycle <= cycles; ++cycle)); do
  random_table_options; write_config="$config_name"
  sleep_ms=$(( 50 + RANDOM % 1451 ))
  "$bin" --mode=write --db="$work/db" --progress="$work/progress" \
    --table_options="$(cat "$work/options")" --seed="$RANDOM" 2> "$work/writer.log" &
  writer=$!
  sleep "$(printf '%d.%03d' $((sleep_ms / 1000)) $((sleep_ms % 1000)))"
  if kill -9 "$writer" 2>/dev/null; then
    { wait "$writer"; } 2>/dev/null || true  # Quietly: bash reports "Killed".
    kills=$((kills + 1))
    phase="$(sed -n 's/^phase //p' "$work/writer.log" | tail -n1)"
    phase="${phase:-start}"
    landed[$phase]=$(( ${landed[$phase]:-0} + 1 ))
  else
    status=0; wait "$writer" || status=$?
    if [ "$status" -ne 0 ]; then
      echo "cycle $cycle: writer failed (status $status):"; cat "$work/writer.log"; failures=$((failures + 1)); break
    fi
    phase="finished (not killed)"
  fi

  random_table_options; verify_config="$config_name"
  status=0
  line="$("$bin" --mode=verify --db="$work/db" --progress="$work/progress" \
            --table_options="$(cat "$work/options")" 2>&1)" || status=$?
  printf 'cycle %d/%d: write %s, killed after %d ms in %s; verify %s: %s\n' \
    "$cycle" "$cycles" "$write_config" "$sleep_ms" "$phase" "$verify_config" "${line#verify: }"
  verified=$(( verified + $(field present "$line") ))
  lost=$(( lost + $(field lost "$line") ))
  phantoms=$(( phantoms + $(field phantoms "$line") ))
  if [ "$status" -ne 0 ]; then failures=$((failures + 1)); break; fi
done

elapsed=$(awk -v s="$start_time" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
where=""; for p in "${!landed[@]}"; do where+=" $p=${landed[$p]}"; done
echo "crash test summary: cycles=$((cycle > cycles ? cycles : cycle)) kills=$kills (in:${where:- none})" \
     "keys_verified=$verified lost=$lost phantoms=$phantoms failures=$failures seed=$seed time=${elapsed}s"
if [ "$failures" -ne 0 ] || [ "$lost" -ne 0 ] || [ "$phantoms" -ne 0 ]; then
  echo "crash test FAILED; DB and logs kept in $work"
  exit 1
fi
[ "$own_work" = yes ] && rm -rf "$work"
exit 0
