#!/usr/bin/env bash
# sstfilter_micro_bench from the outside: --help lists our own flags and
# Google Benchmark's, both kinds of flags are accepted, bad ones refused;
# our compact encoding and RocksDB's Ribbon run every case FastLocalBloom
# runs, and the summary shows their filter sizes and their time relative to
# FastLocalBloom (checked against the per-key times of the same run); the
# ViaRocksDB cases run at CI size and print their ratio to FastLocalBloom;
# the ViaLevelDB cases run and print their ratio to libleveldb.
# Usage: micro_bench_cli_test.sh <path to sstfilter_micro_bench>
set -uo pipefail
tool="$1"
source "$(dirname "$0")/cli_test_lib.sh"

help="$("$tool" --help 2>&1)"
for flag in bits_per_key filters in_cache_keys out_of_cache_filter_keys out_of_cache_mib min_time \
            via_rocksdb via_rocksdb_key_lengths via_rocksdb_mib via_rocksdb_alignment \
            via_rocksdb_rounds via_rocksdb_min_time via_leveldb via_leveldb_keys \
            via_leveldb_rounds via_leveldb_min_time; do
  check "--help lists --$flag" grep -qE -- "^ +--$flag \(" <<<"$help"
done
check "--help lists Google Benchmark's flags" grep -qF -- "--benchmark_filter=<regex>" <<<"$help"

out="$("$tool" --benchmark_filter='^Build/sst_leveldb/' --filters=sst_leveldb --min_time=0.01 \
        --in_cache_keys=1000 2>&1)"
check "runs with both kinds of flags" grep -qE '^Build/sst_leveldb/' <<<"$out"
expect_machine_line "$out"
# SSTFILTER_SIMD=scalar: every encoding's scalar kernels, said in the output and the JSON.
json="$(mktemp)"; trap 'rm -f "$json"' EXIT
out="$(SSTFILTER_SIMD=scalar "$tool" --benchmark_filter='^Build/sst_cache_local/' \
        --filters=sst_cache_local --min_time=0.01 --in_cache_keys=1000 \
        --benchmark_out="$json" --benchmark_out_format=json 2>&1)"
SSTFILTER_SIMD=scalar expect_machine_line "$out"
check "the output names the cap" grep -qF "(SSTFILTER_SIMD=scalar caps" <<<"$out"
check "JSON names the CPU" grep -qE "\"sstfilter_cpu\": \".+$(cpu_id_word)" "$json"
check "JSON names cache_local's kernels" grep -qF '"sstfilter_kernels_cache_local": "scalar"' "$json"
expect_error "unknown filter 'nosuch'" --filters=nosuch

# The ViaRocksDB cases, small: 2 MiB of filters of 2,000 keys per implementation.
out="$("$tool" --benchmark_filter='^ViaRocksDB/' --filters=sst_cache_local,rocksdb_fv5 \
        --via_rocksdb_min_time=0.01 --in_cache_keys=1000 --out_of_cache_filter_keys=2000 \
        --via_rocksdb_mib=2 --via_rocksdb_key_lengths=9,26 --via_rocksdb_rounds=2 2>&1)"
for len in 9 26; do
  for c in InCache/absent InCache/present InCache/batch32/absent OutOfCache/absent \
           OutOfCache/present OutOfCache/batch32/absent OutOfCache/batch32/present; do
    for impl in sst_cache_local rocksdb_fv5; do
      check "ran ViaRocksDB/k$len/$c/$impl twice" \
        test "$(grep -cE "^ViaRocksDB/k$len/$c/$impl/" <<<"$out")" -eq 2
    done
    check "summary ratio for ViaRocksDB/k$len/$c" \
      grep -qE "^  ViaRocksDB/k$len/$c +[0-9.]+x \(target" <<<"$out"
  done
  # Present keys always match, through both readers (and there are such
  # lines: an empty list would pass the first check vacuously).
  present_lines=$(grep -E "^ViaRocksDB/k$len/.*present/.* [0-9.]+ns" <<<"$out")
  check "k$len present cases ran" test -n "$present_lines"
  check "k$len present keys all match" \
    test -z "$(awk '$(NF-1) != 1' <<<"$present_lines")"
done
check "ViaRocksDB filters are sstfilter.bloom:10:cache_local and bloomfilter:10:false" \
  grep -qF "(sstfilter.bloom:10:cache_local)" <<<"$out"
check "ViaRocksDB uses bloomfilter:10:false" grep -qF "(bloomfilter:10:false)" <<<"$out"
expect_error "key length 7 is outside" --benchmark_filter=ViaRocksDB --via_rocksdb_key_lengths=7
expect_error "'x' is not a length" --benchmark_filter=ViaRocksDB --via_rocksdb_key_lengths=x
expect_error "alignment 24 is not a power of two" --via_rocksdb_alignment=24
expect_error "'libleveldb' has no RocksDB option string" --via_rocksdb=libleveldb
expect_error "'rocksdb_fv5' has no LevelDB policy" --via_leveldb=rocksdb_fv5
expect_error "'x' is not a count" --benchmark_filter=ViaLevelDB --via_leveldb_keys=x
expect_error "0 keys per filter is outside" --benchmark_filter=ViaLevelDB --via_leveldb_keys=0
expect_error "Unknown command line flag" --no_such_flag=1

# The ViaLevelDB cases, small: by default libleveldb and each of our
# encodings (the default --help shows), twice each, and their time /
# libleveldb (present keys always match).
impls="$(awk '/--via_leveldb \(/ { on = 1 } on && /default: / { print; exit }' <<<"$help" |
         sed -E 's/.*default: "?([a-z0-9_,]+)"?;?.*/\1/' | tr ',' ' ')"
check "--via_leveldb defaults to libleveldb and ours ($impls)" \
  grep -qE '^libleveldb sst_leveldb( sst_[a-z0-9_]+)+$' <<<"$impls"
out="$("$tool" --benchmark_filter='^ViaLevelDB/' --via_leveldb_min_time=0.01 \
        --via_leveldb_keys=20,3000 --via_leveldb_rounds=2 2>&1)"
for n in 20 3000; do
  for c in present absent; do
    for impl in $impls; do
      check "ran ViaLevelDB/n$n/$c/$impl twice" \
        test "$(grep -cE "^ViaLevelDB/n$n/$c/$impl/" <<<"$out")" -eq 2
    done
    # A ratio per implementation (one of them libleveldb's own 1.00x), "-" elsewhere.
    check "ratios to libleveldb for ViaLevelDB/n$n/$c" \
      test "$(sed -n '/^Time \/ libleveldb per case/,/^$/p' <<<"$out" | awk -v c="ViaLevelDB/n$n/$c" \
                '$1 == c { for (i = 2; i <= NF; i++) { n += $i ~ /^[0-9.]+x$/; one += $i == "1.00x" }
                           print n, (one > 0) }')" = "$(wc -w <<<"$impls") 1"
  done
done
present_lines=$(grep -E "^ViaLevelDB/.*present/.* [0-9.]+ns" <<<"$out")
check "ViaLevelDB present cases ran" test -n "$present_lines"
check "ViaLevelDB present keys all match" test -z "$(awk '$(NF-1) != 1' <<<"$present_lines")"

# Every case of FastLocalBloom is registered for compact and Ribbon too
# (the ViaRocksDB cases compare cache_local with FastLocalBloom only, the
# ViaLevelDB cases LevelDB's policies).
listed="$("$tool" --benchmark_list_tests=true 2>/dev/null)"
cases_of() { sed -nE "s#^(.*)/$1/min_time:.*#\1#p" <<<"$listed" | grep -v '^Via' | sort; }
reference_cases="$(cases_of rocksdb_fv5)"
check "FastLocalBloom runs 15 cases ($(wc -l <<<"$reference_cases"))" \
  test "$(wc -l <<<"$reference_cases")" = 15
for kind in sst_compact ribbon; do
  check "$kind runs every case FastLocalBloom runs" test "$(cases_of $kind)" = "$reference_cases"
done

kinds=sst_cache_local,sst_compact,rocksdb_fv5,ribbon
out="$("$tool" --filters=$kinds --min_time=0.01 --in_cache_keys=20000 \
        --out_of_cache_filter_keys=20000 --out_of_cache_mib=4 \
        --benchmark_filter='^(Build|InCache/absent|OutOfCache/batch8/batched)/' 2>/dev/null)"

# summary_value <table> <row label> <impl>: that impl's column in a row of a
# summary table whose cells are one word each (the label's words removed).
summary_value() {
  local header row
  header="$(grep -m1 -E '^case +sst_leveldb' <<<"$1")"
  row="$(grep -m1 -E "^$2 " <<<"$1")"
  awk -v h="$header" -v r="${row#"$2"}" -v impl="$3" 'BEGIN {
    nh = split(h, names, " "); split(r, cells, " ")
    for (i = 2; i <= nh; i++) if (names[i] == impl) print cells[i - 1] }'
}
bits_compact="$(summary_value "$out" "filter bits/key" sst_compact)"
bits_cache_local="$(summary_value "$out" "filter bits/key" sst_cache_local)"
bits_fv5="$(summary_value "$out" "filter bits/key" rocksdb_fv5)"
bits_ribbon="$(summary_value "$out" "filter bits/key" ribbon)"
holds() { check "$1" awk -v a="$3" -v b="${4-}" "BEGIN { exit !($2) }"; }
holds "FastLocalBloom spends 10 bits/key ($bits_fv5)" 'a > 9.9 && a < 10.2' "$bits_fv5"
holds "compact spends less than cache_local ($bits_compact < $bits_cache_local)" \
  'a > 0 && a < 0.9 * b' "$bits_compact" "$bits_cache_local"
holds "Ribbon spends about 7 bits/key ($bits_ribbon)" 'a > 6.5 && a < 7.5' "$bits_ribbon"

# per_key_ns <case> <impl>: CPU ns per key from Google Benchmark's own line.
per_key_ns() {
  awk -v name="$1/$2/" 'index($1, name) == 1 { v = $NF
    if (sub(/ns$/, "", v)) print v; else if (sub(/us$/, "", v)) print v * 1000 }' <<<"$out"
}
ratios="$(sed -n '/^Time \/ rocksdb_fv5 per case/,/^$/p' <<<"$out")"
check "time / rocksdb_fv5 table" test -n "$ratios"
for c in Build InCache/absent OutOfCache/batch8/batched; do
  for kind in sst_compact ribbon; do
    ratio="$(summary_value "$ratios" "$c" $kind | tr -d x)"
    holds "$c: $kind / FastLocalBloom printed as $ratio, per-key times give it" \
      'a != "" && (a - b)^2 < 0.0001 + (a * 0.01)^2' \
      "$ratio" "$(awk -v x="$(per_key_ns "$c" $kind)" -v y="$(per_key_ns "$c" rocksdb_fv5)" \
                    'BEGIN { if (x > 0 && y > 0) print x / y }')"
  done
done
check "compact's build target against FastLocalBloom" \
  grep -qE '^  Build +[0-9.]+x \(target <= 2\.0x\) (MET|MISSED)$' <<<"$out"
# Each of our encodings but the reference (the summary's first column) has
# its targets against FastLocalBloom, every line with a verdict: its own
# (bench/speed_targets.cc) or "no target", never another encoding's.
reference="$(grep -m1 -E '^case +sst_' <<<"$out" | awk '{print $2}')"
ours="$(sed -nE 's#^Build/(sst_[a-z0-9_]+)/min_time:.*#\1#p' <<<"$listed" | sort -u)"
check "our encodings listed ($(wc -w <<<"$ours"))" test "$(wc -w <<<"$ours")" -ge 3
for kind in $ours; do
  [ "$kind" = "$reference" ] && continue
  section="$(sed -n "/^Targets for $kind (time \/ rocksdb_fv5)/,/^\$/p" <<<"$out")"
  check "$kind: targets against FastLocalBloom" test -n "$section"
  check "$kind: a verdict on every line" \
    test -z "$(tail -n +2 <<<"$section" | grep -vE '(MET|MISSED|\(no target\)|not measured in this run)( |$)' | grep -v '^$')"
done
against_ribbon="$(sed -n '/^Targets for sst_compact (time \/ ribbon/,$p' <<<"$out")"
check "compact against Ribbon: the 3 cases run, each with a verdict" \
  test "$(grep -cE '^  [A-Za-z0-9/]+ +[0-9.]+x \(target < 1\.0x\) (MET|MISSED)$' \
          <<<"$against_ribbon")" = 3

finish
