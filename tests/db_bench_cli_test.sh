#!/usr/bin/env bash
# sstfilter_db_bench from the outside: db_bench-shaped result lines, a
# comparison table, JSON, and clear refusals of bad flags and of filter
# strings that do not resolve; the same on LevelDB (--engine=leveldb), and
# --use_existing_db on both engines.
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
expect_machine_line "$out"
check "json names the CPU and kernels" grep -qE \
  "\"machine\":\\{\"cpu\":\"[^\"]+$(cpu_id_word)[^\"]+\",\"kernels\":\\{[^}]*\"cache_local\":\"$(cpu_simd_level)\"" "$work/r.json"

out="$("$bench" --compare=sstfilter.bloom:10,bloomfilter:10,none --num=5000 \
       --benchmarks=fillseq,readmissing 2>/dev/null)"
check "compare table header" grep -qE '^benchmark +\| sstfilter.bloom:10 +\| bloomfilter:10 +\| none' <<<"$out"
check "compare table row" grep -qE '^readmissing +\|.*x' <<<"$out"

# RocksDB's Ribbon and our compact encoding in a compare: both spend fewer
# filter bytes than the Bloom filter at the same accuracy setting. The fill
# is one flush, whose file (Bloom filters for ribbonfilter:10, level -1)
# the compaction after the fill must rewrite rather than move down.
out="$("$bench" --compare=bloomfilter:10,ribbonfilter:10,sstfilter.bloom:10:compact --num=20000 \
       --benchmarks=fillrandom,readmissing 2>/dev/null)"
bytes=($(sed -nE 's/^filter B\/key +\| ([0-9.]+) +\| ([0-9.]+) +\| ([0-9.]+) *$/\1 \2 \3/p' <<<"$out"))
fps=($(sed -nE 's/^readmissing +\|.* ([0-9.]+)% .*\| .* ([0-9.]+)% .*\| .* ([0-9.]+)% .*/\1 \2 \3/p' <<<"$out"))
echo "filter bytes/key bloom, ribbon, compact: ${bytes[*]}; FP %: ${fps[*]}"
check "Bloom at 10 bits/key: 1.25 filter bytes/key (${bytes[0]-})" \
  awk -v b="${bytes[0]-}" 'BEGIN { exit !(b > 1.24 && b < 1.27) }'
check "ribbonfilter:10 spends under 0.8x Bloom's bytes (${bytes[1]-})" \
  awk -v a="${bytes[1]-}" -v b="${bytes[0]-}" 'BEGIN { exit !(a > 0 && a < 0.8 * b) }'
check "compact spends under 0.9x Bloom's bytes (${bytes[2]-})" \
  awk -v a="${bytes[2]-}" -v b="${bytes[0]-}" 'BEGIN { exit !(a > 0 && a < 0.9 * b) }'
for i in 1 2; do
  check "filter $i: FP near 1% (${fps[$i]-}%)" \
    awk -v fp="${fps[$i]-}" 'BEGIN { exit !(fp > 0.4 && fp < 2) }'
done

# LevelDB, no block cache: every data block a Get needs is read from the
# file, so an absent Get reads one without a filter and ~1% of the time
# with one. leveldb:10 and sstfilter.bloom:10 write the same filter bytes,
# so they must read exactly the same blocks. sstfilter.bloom:10:* is each
# of our encodings (sstfilter.bloom:10 first, as the policy writes its id).
out="$("$bench" --engine=leveldb --compare='leveldb:10,sstfilter.bloom:10:*,none' --num=20000 \
       --cache_size=0 --benchmarks=fillrandom,readrandom,readmissing 2>/dev/null)"
check "leveldb: engine named" grep -qx 'engine       : leveldb' <<<"$out"
labels=($(grep -m1 -E '^benchmark +\|' <<<"$out" | sed -E 's/^benchmark//; s/\|/ /g'))
runs=${#labels[@]}
check "leveldb: compare table: leveldb:10, then * as ours, then none (${labels[*]})" \
  test "$runs" -ge 5 -a "${labels[0]-}" = leveldb:10 -a "${labels[1]-}" = sstfilter.bloom:10 \
       -a "${labels[runs - 1]}" = none
for ((i = 2; i < runs - 1; i++)); do
  check "leveldb: * gave ${labels[i]}" grep -qxE 'sstfilter\.bloom:10:[a-z0-9_]+' <<<"${labels[i]}"
done
check "leveldb: * gave compact" grep -qx 'sstfilter.bloom:10:compact' < <(printf '%s\n' "${labels[@]}")
check "leveldb: each label once" test "$(printf '%s\n' "${labels[@]}" | sort -u | wc -l)" = "$runs"
found="$(grep -cE '^readrandom   : .* \(20000 of 20000 found\)$' <<<"$out")"
check "leveldb: every written key found, for each filter ($found of $runs runs)" test "$found" = "$runs"
reads=($(sed -nE '/^readmissing  :/{n;s/.*, ([0-9.]+) data-block reads\/op.*/\1/p}' <<<"$out"))
echo "leveldb readmissing data-block reads/op: ${reads[*]}"
check "leveldb: $runs readmissing runs" test "${#reads[@]}" = "$runs"
check "leveldb: built-in and ours read the same blocks (${reads[0]} vs ${reads[1]})" \
  test "${reads[0]}" = "${reads[1]}"
for ((i = 0; i < runs - 1; i++)); do
  check "leveldb: ${labels[i]} skips data reads (${reads[i]-}/op)" \
    awk -v r="${reads[i]-}" 'BEGIN { exit !(r != "" && r < 0.03) }'
done
check "leveldb: no filter reads a block per absent Get (${reads[runs - 1]-}/op)" \
  awk -v r="${reads[runs - 1]-}" 'BEGIN { exit !(r > 0.9 && r < 1.1) }'
# One sorted run: a present key's Get asks one filter, a true positive.
tp="$(sed -nE '/^readrandom   :/{n;p}' <<<"$out" | grep -c '(0 absent-key checks)')"
check "leveldb: present keys' filter checks are true positives ($tp of $runs runs)" test "$tp" = "$runs"
fp="$(sed -nE '/^readmissing  :/{n;s/.*filter fp ([0-9.]+)% .*/\1/p}' <<<"$out" | head -n1)"
check "leveldb: filter checks counted (fp $fp%)" awk -v fp="$fp" 'BEGIN { exit !(fp != "" && fp > 0.1 && fp < 5) }'
out="$("$bench" --engine=leveldb --num=2000 2>/dev/null)"
check "leveldb: default benchmarks run, without multireadrandom" \
  bash -c '! grep -q "^multireadrandom" <<<"$1" && grep -q "^readmissing" <<<"$1"' _ "$out"

# --use_existing_db: fills skipped, the DB written before is read.
for engine in leveldb rocksdb; do
  "$bench" --engine=$engine --db="$work/$engine" --num=3000 --benchmarks=fillrandom >/dev/null 2>&1
  out="$("$bench" --engine=$engine --db="$work/$engine" --num=3000 --use_existing_db \
         --benchmarks=fillrandom,readrandom 2>/dev/null)"
  expect_line "$out" "fillrandom   : skipped (--use_existing_db is true)"
  check "$engine: existing DB read (3000 of 3000 found)" grep -qF '(3000 of 3000 found)' <<<"$out"
done
expect_error "--use_existing_db needs --db" --use_existing_db --num=10
expect_error "does not exist" --engine=leveldb --use_existing_db --db="$work/none" --num=10

expect_error "--engine=rocks: expected rocksdb or leveldb" --engine=rocks --num=10
"$bench" --engine=rocks --num=10 >/dev/null 2>&1
check "bad --engine exits 2 like other flag errors" test $? = 2
expect_error "--filter 'bloomfilter:10' is not a LevelDB filter policy" \
  --engine=leveldb --filter=bloomfilter:10 --num=10
expect_error "--filter 'ribbonfilter:10' is not a LevelDB filter policy" \
  --engine=leveldb --compare=leveldb:10,ribbonfilter:10 --num=10
expect_error "--filter 'leveldb:0': LevelDB's built-in policy takes whole bits per key" \
  --engine=leveldb --filter=leveldb:0 --num=10
expect_error "bits_per_key=-1 is out of range" --engine=leveldb --filter=sstfilter.bloom:-1 --num=10
expect_error "--filter 'leveldb:10' is LevelDB's built-in policy; it needs --engine=leveldb" \
  --filter=leveldb:10 --num=10
expect_error "multireadrandom: LevelDB has no MultiGet" \
  --engine=leveldb --benchmarks=fillseq,multireadrandom --num=10

# A settled tree of levels (no full compaction, small buffers): filter
# bytes reported in total and by level, the levels adding up to the total;
# compact_from_level:6 spends fewer bytes than cache_local (its L6, the
# bottom level, holds most keys). Uncompressed 256 KB tables of ~2000 keys,
# the same whether RocksDB was built with Snappy or not: below a few hundred
# keys per table compact filters are Bloom filters (smaller there), and
# 64 KB tables without compression hold only ~550, where compact_from_level
# saves too little to test (RocksDB built without compression libraries).
out="$("$bench" --compare=sstfilter.bloom:10:cache_local,sstfilter.bloom:10:cache_local:compact_from_level:6 \
       --num=30000 --benchmarks=fillrandom,readmissing --final_compaction=false --compression_type=none \
       --write_buffer_size=262144 --target_file_size_base=262144 --max_bytes_for_level_base=524288 \
       --level_compaction_dynamic_level_bytes=true 2>/dev/null)"
echo "$out"
check "filter bytes row with ratios" grep -qE '^filter bytes +\| [0-9]+ \(1\.000x\) +\| [0-9]+ \(0\.[0-9]{3}x\)' <<<"$out"
lines="$(grep -E '^ +: .*filter bytes \(' <<<"$out")"
check "by-level filter bytes on every line ($(wc -l <<<"$lines") of 4)" test "$(wc -l <<<"$lines")" = 4
while read -r line; do
  total="$(sed -nE 's/.*, ([0-9]+) filter bytes \(.*/\1/p' <<<"$line")"
  levels="$(sed -nE 's/.*filter bytes \((.*)\)$/\1/p' <<<"$line" | tr ',' '\n' |
            awk '{s += $2} END {print s}')"
  check "levels add up to the total ($levels of $total)" test "$levels" = "$total"
  check "a settled tree has tables in L6" grep -qE 'L6 [0-9]+' <<<"$line"
done <<<"$lines"
ratio="$(sed -nE 's/^filter bytes +\| [0-9]+ \(1\.000x\) +\| [0-9]+ \((0\.[0-9]+)x\).*/\1/p' <<<"$out")"
check "compact_from_level:6 spends less ($ratio of cache_local)" \
  awk -v r="$ratio" 'BEGIN { exit !(r != "" && r < 0.95) }'
expect_error "--write_buffer_size=0: expected a byte count > 0" --write_buffer_size=0 --num=10
expect_error "--max_bytes_for_level_base=-5: expected a byte count > 0" \
  --max_bytes_for_level_base=-5 --num=10
expect_error "--compression_type=gzip: expected none, snappy, lz4 or zstd" \
  --compression_type=gzip --num=10
expect_error "are RocksDB's; they need --engine=rocksdb" \
  --engine=leveldb --target_file_size_base=1048576 --num=10
expect_error "compact_from_level=2 needs a host that tells the policy each table's level" \
  --engine=leveldb --filter=sstfilter.bloom:10:cache_local:compact_from_level:2 --num=10

expect_error "did not resolve" --filter=nosuchfilter:10 --num=10
expect_error "bits_per_key=-1 is out of range" --filter=sstfilter.bloom:-1 --num=10
expect_error "did not resolve" --compare=sstfilter.bloom:10,bogus --num=10
expect_error "--compare: 'bloomfilter:10:*': " --compare=bloomfilter:10:* --num=10
expect_error "--num=0" --num=0
expect_error "--key_size=4" --key_size=4
expect_error "unknown benchmark 'readsometimes'" --benchmarks=readsometimes
expect_error "unexpected argument" --num=10 stray
expect_error "Unknown command line flag" --no_such_flag=1
# The disk scenario, at a small size: direct reads and a tree of levels;
# absent-key checks are counted per level, and the levels add up to the
# DB's whole count (two independent counters: RocksDB's per-level perf
# context and its statistics tickers).
out="$("$bench" --scenario=disk --filter=bloomfilter:10 --num=30000 --reads=3000 \
       --write_buffer_size=262144 --target_file_size_base=262144 --max_bytes_for_level_base=524288 \
       --benchmarks=fillrandom,readmissing,multireadmissing --json="$work/disk.json" 2>/dev/null)"
echo "$out"
check "multireadmissing finds nothing" grep -qE '^multireadmissing : .*\(0 of 3000 found\)' <<<"$out"
for b in readmissing multireadmissing; do
  total="$(grep -A1 -E "^$b " <<<"$out" | sed -nE 's/.*filter fp [0-9.]+% \(([0-9]+) absent-key checks\).*/\1/p')"
  levels="$(grep -A2 -E "^$b " <<<"$out" | sed -nE 's/.*: fp by level (.*)/\1/p' |
            grep -oE '\(([0-9]+) checks\)' | tr -dc '0-9\n' | awk '{s += $1} END {print s}')"
  count="$(grep -A2 -E "^$b " <<<"$out" | sed -nE 's/.*: fp by level (.*)/\1/p' | grep -oE 'L[0-9]+ ' | wc -l)"
  check "$b: checks by level add up ($levels of $total)" test -n "$total" -a "$levels" = "$total"
  check "$b: checks at 2 or more levels ($count)" test "$count" -ge 2
done
check "json says direct reads" grep -q '"use_direct_reads":true' "$work/disk.json"
check "json has checks by level" grep -q '"filter_checks_by_level":\[{"absent_checks"' "$work/disk.json"
# The frontier, at a small size: two families at two settings, its table,
# CSV and plot.
out="$("$bench" --scenario=disk --num=30000 --reads=3000 --write_buffer_size=262144 \
       --target_file_size_base=262144 --max_bytes_for_level_base=524288 --frontier=6,12 \
       --frontier_families='bloomfilter:N,sstfilter.bloom:N:compact:optimize_levels' \
       --out_dir="$work/frontier" 2>/dev/null)"
echo "$out"
check "frontier: four runs in its table" \
  test "$(grep -cE '^(bloomfilter|sstfilter\.bloom):N.* (6|12) +[0-9.]+ +[0-9.]+ +[0-9.]+$' <<<"$out")" = 4
check "frontier: ratios against bloomfilter:N at 12" grep -q '^against bloomfilter:N at 12 (' <<<"$out"
check "frontier: csv of four points" test "$(wc -l < "$work/frontier/frontier.csv")" = 5
reads6="$(awk -F, '$1 == "\"bloomfilter:N\"" && $2 == 6 {print $4}' "$work/frontier/frontier.csv")"
reads12="$(awk -F, '$1 == "\"bloomfilter:N\"" && $2 == 12 {print $4}' "$work/frontier/frontier.csv")"
check "frontier: more bits, fewer reads ($reads6 at 6, $reads12 at 12)" \
  awk -v a="$reads6" -v b="$reads12" 'BEGIN { exit !(a != "" && b != "" && a > 2 * b) }'
check "frontier: plot drawn" test -s "$work/frontier/frontier.png"
expect_error "--frontier: 'x' is not a setting" --frontier=8,x
expect_error "--frontier builds its own DBs" --frontier=8,10 --compare=bloomfilter:10
expect_error "expected one field 'N'" --frontier=8,10 --frontier_families=bloomfilter:10
expect_error "--scenario=ssd: expected memory, disk, budget or cached" --scenario=ssd --num=10
expect_error "they need --engine=rocksdb (and --scenario=memory)" --engine=leveldb --scenario=disk
expect_error "--max_bytes_for_level_multiplier=1: expected a number in (1, 1000]" \
  --max_bytes_for_level_multiplier=1 --num=10
# The cache sweep, at a small size: filters in a block cache an eighth of
# what bloomfilter:10's need, then twice that; the bottom level without
# filters (optimize_filters_for_hits) as a row of its own.
out="$("$bench" --scenario=cached --num=40000 --reads=2000 --warm_reads=2000 \
       --write_buffer_size=262144 --target_file_size_base=262144 --cache_sweep=0.125,2 \
       --compare='bloomfilter:10,bloomfilter:10+optimize_filters_for_hits' \
       --sweep_gets=absent,mixed --out_dir="$work/sweep" 2>/dev/null)"
echo "$out"
csv="$work/sweep/cache_sweep.csv"
check "sweep: csv of 2 rows x 2 caches x 2 kinds" test "$(wc -l < "$csv")" = 9
field() {  # field <policy> <fraction> <kind> <column>
  awk -F, -v p="\"$1\"" -v f="$2" -v k="$3" -v c="$4" \
    '$1 == p && $3 == f && $4 == k {print $c}' "$csv"
}
small="$(field bloomfilter:10 0.125 absent 6)"; big="$(field bloomfilter:10 2 absent 6)"
check "sweep: filters that do not fit are read from the device ($small at 0.125x, $big at 2x)" \
  awk -v a="$small" -v b="$big" 'BEGIN { exit !(a != "" && b != "" && a > 0.5 && a > 4 * b) }'
plain="$(field bloomfilter:10 2 absent 11)"
hits="$(field bloomfilter:10+optimize_filters_for_hits 2 absent 11)"
check "sweep: no bottom-level filters, fewer filter bytes ($hits of $plain)" \
  awk -v a="$hits" -v b="$plain" 'BEGIN { exit !(a != "" && b != "" && a < b / 2) }'
# Each level's block-cache misses (RocksDB's per-level perf context) add
# up to the Get's device reads (every miss is one: direct reads).
total="$(field bloomfilter:10 0.125 absent 9)"
by_level="$(grep '^"bloomfilter:10",[0-9]*,0.125,absent,' "$csv" | grep -oE 'misses [0-9.]+' |
            awk '{s += $2} END {print s}')"
check "sweep: the levels' misses add up to the device reads ($by_level of $total)" \
  awk -v a="$by_level" -v b="$total" 'BEGIN { exit !(a != "" && b > 0 && a > 0.97 * b && a < 1.03 * b) }'
found="$(field bloomfilter:10 2 mixed 5)"
check "sweep: mixed Gets find their key half the time ($found)" \
  awk -v a="$found" 'BEGIN { exit !(a > 0.4 && a < 0.6) }'
check "sweep: plot drawn" test -s "$work/sweep/cache_sweep.png"
check "sweep: a panel per kind of Gets, a curve per policy" \
  test "$(grep -cE '^\$k[0-9]+_[0-9]+ << EOD' "$work/sweep/cache_sweep.gp")" = 4
check "sweep: a table for each kind and cache" \
  test "$(grep -cE '^(absent|mixed) Gets, block cache ' <<<"$out")" = 4
expect_error "--cache_sweep: 'x' is not a fraction" --scenario=cached --cache_sweep=0.5,x
expect_error "--sweep_zipf=-1: expected a theta in [0, 10]" --scenario=cached --cache_sweep=1 \
  --sweep_zipf=-1
expect_error "--sweep_gets: 'hot' is not a kind of Gets" --scenario=cached --cache_sweep=1 \
  --sweep_gets=hot
expect_error "--sweep_live_gets=5: expected 0, or Gets per round with one kind in --sweep_gets (it has 3)" \
  --scenario=cached --cache_sweep=1 --sweep_live_gets=5
expect_error "--sweep_live_gets=-1: expected 0" --scenario=cached --cache_sweep=1 \
  --sweep_gets=absent --sweep_live_gets=-1
expect_error "--sweep_learn_gets=5: expected 0, or Gets with one kind in --sweep_gets (it has 3)" \
  --scenario=cached --cache_sweep=1 --sweep_learn_gets=5
expect_error "--sweep_learn_gets=-1: expected 0" --scenario=cached --cache_sweep=1 \
  --sweep_gets=absent --sweep_learn_gets=-1
expect_error "--cache_sweep needs --engine=rocksdb and filters in the block cache" \
  --scenario=disk --cache_sweep=1

help="$("$bench" --help 2>&1)"
check "--help lists the db_bench flags" grep -qF -- "--partition_index_and_filters (" <<<"$help"

finish
