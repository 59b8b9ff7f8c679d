#!/usr/bin/env bash
# Instructions per filter query, counted under qemu-user (tools/dev
# arm64-insns): a dynamic count, not a time. qemu logs every translation
# block's guest instructions when it translates it (in_asm) and every
# execution of a block (exec, with nochain so that no chained jump goes
# unlogged); a block's instructions times its executions, summed, is what
# the program executed. sstfilter_query_loop runs twice per cell, at Q and
# 2Q queries; the difference over Q is one query with its share of the loop
# (a few instructions), setup and exit cancelling out.
#
#   tools/insn_count.sh PROGRAM [QUERIES]
#   tools/insn_count.sh --count-log LOG   (one log's totals; for the test)
#
# PROGRAM runs sstfilter_query_loop (an arm64 build's run/ wrapper, which
# execs it under qemu-user: the QEMU_LOG variables reach qemu). Prints one
# row per filter and SIMD level, one column per query mode. With
# INSN_DETAIL=1 each cell also lists the functions a query spends its
# instructions in (names from the program's own symbols; code in shared
# libraries, RocksDB's among them, shows as "(shared library)").
set -euo pipefail

# Reads a qemu log (in_asm,exec,nochain); prints "TOTAL n" and "symbol n"
# lines: instructions executed, in all and per function.
count_log() {
  awk '
    /^IN:/ { sym = substr($0, 5); if (sym == "") sym = "(shared library)"; start = ""; next }
    /^0x[0-9a-f]+:/ {
      pc = substr($1, 3, length($1) - 3); sub(/^0+/, "", pc)
      if (start == "") { start = pc; size[start] = 0; name[start] = sym }
      size[start]++; next
    }
    /^$/ { start = ""; next }
    /^Trace/ {
      split($0, a, "[/\\[]"); pc = a[3]; sub(/^0+/, "", pc); runs[pc]++; next
    }
    END {
      for (pc in runs) { n = runs[pc] * size[pc]; total += n; per[name[pc]] += n }
      printf "TOTAL %d\n", total
      for (s in per) printf "%s %d\n", s, per[s]
    }' "$1"
}

# Runs the program once with qemu's log on; prints count_log of it. The
# log (hundreds of MB, mostly the dynamic loader's) streams through a FIFO.
counted_run() {
  local fifo="$work/qemu.fifo" counter
  rm -f "$fifo" && mkfifo "$fifo"
  count_log "$fifo" > "$work/counts" &
  counter=$!
  if ! QEMU_LOG=in_asm,exec,nochain QEMU_LOG_FILENAME="$fifo" "$program" "$@" > "$work/out"; then
    : <> "$fifo"  # Releases a counter still waiting for the log; never blocks.
    wait "$counter" || true
    cat "$work/out" >&2
    echo "insn_count.sh: $program $* failed" >&2
    exit 1
  fi
  wait "$counter"
  cat "$work/counts"
}

# Instructions per query of one cell: prints the figure (one decimal), and
# the functions it spends them in, most first, to $work/detail.
per_query() {
  counted_run --queries="$queries" "$@" > "$work/a"
  counted_run --queries="$((2 * queries))" "$@" > "$work/b"
  awk -v q="$queries" -v detail="$work/detail" '
    { n = $NF; $NF = ""; sub(/ $/, "") }
    NR == FNR { once[$0] = n; next }
    { d = (n - once[$0]) / q; if ($0 == "TOTAL") total = d; else if (d >= 0.5) per[$0] = d }
    END {
      printf "%.1f\n", total
      printf "" > detail
      for (s in per) printf "    %7.1f  %s\n", per[s], s | ("sort -rn > " detail)
    }' "$work/a" "$work/b"
}

if [ "${1:-}" = --count-log ]; then count_log "${2:?usage: tools/insn_count.sh --count-log LOG}"; exit; fi
program="${1:?usage: tools/insn_count.sh PROGRAM [QUERIES]}"
queries="${2:-4096}"
if ! [[ "$queries" =~ ^[1-9][0-9]*$ ]]; then
  echo "insn_count.sh: QUERIES '$queries' is not a positive count" >&2
  exit 2
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# label | SSTFILTER_SIMD (the cap: neon leaves every level on) | policy.
# Each of our encodings (the program's --list_encodings) at its best level
# and scalar, then RocksDB's two filters.
rows=()
names="$("$program" --list_encodings)" || { echo "insn_count.sh: $program failed" >&2; exit 1; }
for name in $names; do
  rows+=("$name|neon|sstfilter.bloom:10:$name" "$name, scalar|scalar|sstfilter.bloom:10:$name")
done
rows+=("RocksDB FastLocalBloom|neon|bloomfilter:10:false" "RocksDB Ribbon|neon|ribbonfilter:10")
# label | flags
modes=(
  "present, single|"
  "absent, single|--absent"
  "present, batch 16|--batch=16"
  "absent, batch 16|--batch=16 --absent"
)

printf 'Instructions per query (10 bits/key, 10000 keys; %s queries, counted under qemu-user)\n' \
  "$queries"
printf '%-24s' "filter"
for m in "${modes[@]}"; do printf ' | %-17s' "${m%%|*}"; done
printf '\n'
for r in "${rows[@]}"; do
  IFS='|' read -r label simd policy <<<"$r"
  printf '%-24s' "$label"
  details=""
  for m in "${modes[@]}"; do
    IFS='|' read -r mlabel flags <<<"$m"
    # shellcheck disable=SC2086  # flags: words on purpose.
    figure="$(SSTFILTER_SIMD="$simd" per_query --policy="$policy" $flags)"
    printf ' | %17s' "$figure"
    details+="  $mlabel:"$'\n'"$(head -8 "$work/detail")"$'\n'
  done
  printf '\n'
  if [ "${INSN_DETAIL:-0}" = 1 ]; then printf '%s' "$details"; fi
done
