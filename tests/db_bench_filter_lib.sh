# Helpers for the tests that drive a RocksDB db_bench (stock, plugin-built,
# or another RocksDB version's) with sstfilter's policy. Sourced, not run;
# needs cli_test_lib.sh sourced first (pass/fail/finish).

# write_options <file> <filter_policy>: an OPTIONS file any RocksDB from 7.8
# reads: no compression (a RocksDB built without Snappy can read the
# files), format_version 5 (the newest 7.8 reads), small memtables (several
# SST files from a few ten thousand keys).
write_options() {
  cat > "$1" <<OPT
[Version]
  rocksdb_version=7.8.3
  options_file_version=1.1

[DBOptions]
  create_if_missing=true

[CFOptions "default"]
  table_factory=BlockBasedTable
  write_buffer_size=262144
  compression=kNoCompression

[TableOptions/BlockBasedTable "default"]
  filter_policy=$2
  format_version=5
OPT
}

# ticker <name> <db_bench output>: the COUNT of one --statistics ticker.
ticker() { awk -v name="$1" '$1 == name { print $4 }' <<<"$2"; }

# run_db_bench <db_bench> <options file> <db dir> <flags...>. Honours
# $PRELOAD (a library to LD_PRELOAD into db_bench); prints its output and
# fails with it when db_bench fails.
run_db_bench() {
  local bin="$1" opts="$2" db="$3"; shift 3
  local out
  if ! out="$(env ${PRELOAD:+LD_PRELOAD="$PRELOAD"} "$bin" --options_file="$opts" --db="$db" "$@" 2>&1)"; then
    echo "$out"; fail "$bin $* exited non-zero"; return 1
  fi
  echo "$out"
}

# write_db <db_bench> <options> <db> <num>: keys 0..num-1, all flushed to SSTs.
write_db() {
  run_db_bench "$1" "$2" "$3" --benchmarks=fillseq,flush --num="$4" --compression_type=none
}

# expect_our_filters <sstfilter_sst> <db>: every SST in db carries
# sstfilter.bloom's full filter (read by our own inspector, not by RocksDB).
expect_our_filters() {
  local tool="$1" db="$2" f n=0 out
  for f in "$db"/*.sst; do
    [ -e "$f" ] || continue
    n=$((n + 1))
    out="$("$tool" --file "$f" 2>&1)" || { fail "sstfilter_sst $f: $out"; return; }
    grep -qE "^filter +full \(meta block 'fullfilter\.sstfilter\.bloom'\)" <<<"$out" \
      || { fail "$f lacks sstfilter.bloom's filter:"; echo "$out"; return; }
  done
  if [ "$n" -eq 0 ]; then fail "no SST files in $db"; else pass; fi
}

# expect_filter_answers <db_bench> <options> <db> <num>: opens the existing
# db read-only, reads every present key once at random (all must be found:
# no false negative) and num absent keys (the filter must reject nearly all:
# rocksdb.bloom.filter.useful, with an FP rate near 1% at 10 bits/key).
expect_filter_answers() {
  local bin="$1" opts="$2" db="$3" num="$4" out found useful positive true_positive fp_permille
  out="$(run_db_bench "$bin" "$opts" "$db" --use_existing_db=1 --readonly=1 \
           --benchmarks=readrandom,readmissing --num="$num" --reads="$num" --statistics)" || return
  found="$(sed -n 's/^readrandom .*(\([0-9]*\) of \([0-9]*\) found).*/\1 \2/p' <<<"$out")"
  # shellcheck disable=SC2086
  set -- $found
  if [ $# -ne 2 ] || [ "$1" != "$2" ]; then
    fail "readrandom found '${found}' (found of read): a present key was lost"; echo "$out"; return
  fi
  pass
  useful="$(ticker rocksdb.bloom.filter.useful "$out")"
  positive="$(ticker rocksdb.bloom.filter.full.positive "$out")"
  true_positive="$(ticker rocksdb.bloom.filter.full.true.positive "$out")"
  echo "useful=$useful positive=$positive true_positive=$true_positive (readrandom + readmissing, $num each)"
  if [ -z "$useful" ] || [ "$useful" -lt $((num * 9 / 10)) ]; then
    fail "the filter rejected too few of $num absent keys (useful=$useful)"; return
  fi
  # Present keys are all true positives: what remains are absent keys passed.
  fp_permille=$(( (positive - true_positive) * 1000 / (useful + positive - true_positive) ))
  echo "FP rate ${fp_permille} per mille"
  if [ "$fp_permille" -gt 30 ]; then
    fail "FP rate ${fp_permille} per mille is far above the ~10 expected"; return
  fi
  pass
}

# expect_policy_refused <db_bench> <filter_policy> <text>: db_bench with an
# OPTIONS file naming a bad sstfilter.bloom policy must not run: non-zero
# exit and a message containing text (never a DB without its filter).
expect_policy_refused() {
  local bin="$1" policy="$2" text="$3" dir out
  dir="$(mktemp -d)"
  write_options "$dir/OPTIONS" "$policy"
  if out="$(env ${PRELOAD:+LD_PRELOAD="$PRELOAD"} "$bin" --options_file="$dir/OPTIONS" \
              --db="$dir/db" --benchmarks=fillseq --num=100 2>&1)"; then
    fail "db_bench ran with filter_policy=$policy"
  elif grep -qF -- "$text" <<<"$out"; then pass
  else fail "db_bench refused filter_policy=$policy without naming '$text': $out"; fi
  rm -rf "$dir"
}

# expect_bad_policies_refused <db_bench>: a few bad strings of each kind.
expect_bad_policies_refused() {
  expect_policy_refused "$1" "sstfilter.bloom:0" "bits_per_key=0"
  expect_policy_refused "$1" "sstfilter.bloom:10:bogus" "bogus"
  expect_policy_refused "$1" "sstfilter.bloom:" "sstfilter.bloom:"
  expect_policy_refused "$1" "{id=sstfilter.bloom;bpk=10}" "bpk"
}
