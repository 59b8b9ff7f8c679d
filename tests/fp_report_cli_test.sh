#!/usr/bin/env bash
# sstfilter_fp_report from the outside, on one small run: every kind is
# measured, including our compact encoding and RocksDB's Ribbon; the bits/key
# each filter spends (filter bytes x 8 / n) is in the CSV, the table and the
# spent-bits plot, is consistent with the filter's bytes, and is sane: no
# filter beats the information-theoretic least log2(1/FP), Bloom filters
# spend what they are configured with, compact and Ribbon spend less.
# Usage: fp_report_cli_test.sh <path to sstfilter_fp_report>
set -uo pipefail
tool="$1"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
source "$(dirname "$0")/cli_test_lib.sh"

n=100000
out="$("$tool" --out_dir="$work" --shapes=random16 --min_n=$n --max_n=$n --bits=8,10 \
       2>"$work/stderr")"
check "exits 0" test $? = 0
expect_machine_line "$out"
csv="$work/fp_rates.csv"
check "CSV names filter_bytes and spent_bits_per_key" \
  grep -q '^shape,n,bits_per_key,filter,filter_bytes,spent_bits_per_key,queries,' "$csv"

# col <impl> <configured bits> <column>: that row's value in the CSV.
col() {
  awk -F, -v impl="$1" -v bits="$2" -v name="$3" \
    'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
     $4 == impl && $3 == bits { print $c[name] }' "$csv"
}
# holds <description> <awk condition on a, b, c>: checks the condition.
holds() {
  check "$1" awk -v a="${3-}" -v b="${4-}" -v c="${5-}" "BEGIN { exit !($2) }"
}

# Every kind the report knows (ours: one per encoding of the list), as its
# refusal of an unknown one names them.
kinds=($("$tool" --out_dir="$work/unknown" --filters=nosuch 2>&1 | sed -n 's/.*(known: \(.*\))$/\1/p'))
check "kinds named: ours and 4 peers (${kinds[*]})" \
  test "$(printf '%s\n' "${kinds[@]}" | grep -c '^sst_')" -ge 3 -a "${#kinds[@]}" -ge 7
for kind in "${kinds[@]}"; do
  for bits in 8 10; do
    spent="$(col $kind $bits spent_bits_per_key)"
    bytes="$(col $kind $bits filter_bytes)"
    fp="$(col $kind $bits fp_rate)"
    holds "$kind at $bits: spent $spent = $bytes bytes x 8 / $n" \
      'a != "" && b > 0 && (a - b * 8 / c)^2 < 1e-6' "$spent" "$bytes" $n
    holds "$kind at $bits: spent $spent >= log2(1/FP $fp) (the least possible)" \
      'a != "" && b > 0 && a >= log(1 / b) / log(2) - 0.15' "$spent" "$fp"
    # The table cell: FP (model) spent.
    check "$kind at $bits: table shows spent $spent" \
      bash -c 'grep -E "^random16 +$1 +$2 " <<<"$4" | grep -qE " $(printf %.2f "$3")( |$)"' \
      _ $n $bits "$spent" "$out"
  done
done
spent_compact="$(col sst_compact 10 spent_bits_per_key)"
spent_cache_local="$(col sst_cache_local 10 spent_bits_per_key)"
spent_fv5="$(col rocksdb_fv5 10 spent_bits_per_key)"
spent_ribbon="$(col ribbon 10 spent_bits_per_key)"
holds "FastLocalBloom spends what it is configured with ($spent_fv5 at 10)" \
  'a > 9.9 && a < 10.1' "$spent_fv5"
holds "compact spends less than cache_local at 10 ($spent_compact < $spent_cache_local)" \
  'a > 0 && a < 0.9 * b' "$spent_compact" "$spent_cache_local"
holds "Ribbon spends about 7 bits/key at 10 ($spent_ribbon)" \
  'a > 6.5 && a < 7.5' "$spent_ribbon"
check "summary of spent bits" \
  grep -qF 'bits/key spent (filter bytes x 8 / n) at 10 bits/key configured' <<<"$out"
check "summary row shows compact's and Ribbon's spent bits" \
  grep -qE "^ +$n .* $(printf %.2f "$spent_compact") .* $(printf %.2f "$spent_ribbon")\$" <<<"$out"

# The spent-bits plot: rendered, every kind in its legend, and the compact
# and Ribbon series drawn at their spent bits (the configured plot at 8, 10).
check "fp_vs_spent.png rendered" test -s "$work/fp_vs_spent.png"
legend_titles() { grep '^plot NaN' "$1" | grep -oE 'title "[^"]*"' | sed 's/^title "//; s/"$//'; }
# series_x <script> <legend pattern>: x values of that series in panel 0.
series_x() {
  local i
  i="$(legend_titles "$1" | grep -nE "$2" | head -n1 | cut -d: -f1)"
  [ -n "$i" ] || return 0
  awk -v block="\$d_0_$((i - 1)) << EOD" '$0 == block { on = 1; next }
    /^EOD/ { on = 0 } on { printf "%s ", $1 }' "$1"
}
spent_gp="$work/fp_vs_spent.gp"
check "spent plot legend names all ${#kinds[@]} kinds" \
  test "$(legend_titles "$spent_gp" | grep -vcE '^(model of|least possible)')" = "${#kinds[@]}"
# same_numbers "<list>" "<list>": equal lengths, equal within 1e-3.
same_numbers() {
  awk -v a="$1" -v b="$2" 'BEGIN { na = split(a, x, " "); nb = split(b, y, " ")
    if (na != nb || na == 0) exit 1
    for (i = 1; i <= na; i++) if ((x[i] - y[i])^2 > 1e-6) exit 1 }'
}
for pair in "sst_compact:sstfilter compact" "ribbon:Standard128Ribbon"; do
  kind="${pair%%:*}"; label="${pair#*:}"
  expected="$(col $kind 8 spent_bits_per_key) $(col $kind 10 spent_bits_per_key)"
  xs="$(series_x "$spent_gp" "$label")"
  check "spent plot draws $kind at its spent bits ('$xs' = '$expected')" \
    same_numbers "$xs" "$expected"
  xs="$(series_x "$work/fp_vs_bits.gp" "$label")"
  check "configured plot draws $kind at 8 and 10 ('$xs')" same_numbers "$xs" "8 10"
done

# FP targets: each encoding of ours sized for 1% by its own model; the
# encodings whose model holds on random keys (cache_local, compact) measure
# at most the target, within sampling error (400 expected false positives:
# 5 sigma is 25%).
targets="$work/fp_targets.csv"
check "FP-target CSV written" grep -q '^shape,n,target_fp_rate,filter,bits_per_key,' "$targets"
for kind in sst_cache_local sst_compact; do
  ratio="$(awk -F, -v k=$kind '$4 == k && $3 == 0.01 { print $10 }' "$targets")"
  holds "$kind sized for 1% measures at most it (measured/target $ratio)" \
    'a != "" && a < 1.25' "$ratio"
done
check "FP-target summary printed" grep -q '^sst_compact at a 1% target over 1 cases' <<<"$out"

expect_error "--out_dir is required" --shapes=random16
expect_error "--fp_targets: '2' is not an FP rate" --out_dir="$work/t" --fp_targets=2
finish
