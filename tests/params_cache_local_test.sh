#!/usr/bin/env bash
# sstfilter_params --encoding: the cache-local encoding's fields (values worked
# out by hand from cache_local/math.h: lines = ceil(n * bits / 512), bytes =
# 64 * lines + 4 above 8 lines (else narrow lines of ceil(n * bits / (8 *
# lines)) bytes), FP = sum_L Poisson(L; n / lines) (1 - (1 - 1/512)^(k L))^k),
# the LevelDB default kept, and a clear error for an unknown format.
# Usage: params_cache_local_test.sh <path to sstfilter_params>
set -uo pipefail
params="$1"
tool="$params"
source "$(dirname "$0")/cli_test_lib.sh"

# 1000 keys at 10 bits/key: 20 lines, 1284 bytes, k = 6, lambda = 50.
out="$("$params" --keys 1000 --bits_per_key 10 --encoding cache_local 2>&1)"
expect_line "$out" "encoding           cache_local"
expect_line "$out" "k (probes)         6"
expect_line "$out" "lines (64 bytes)   20"
expect_line "$out" "filter bytes       1284"
expect_line "$out" "expected fp rate   0.00867532"
# (1 - e^(-6 * 1000 / 10240))^6 for the same bits in one array.
expect_line "$out" "  standard bloom   0.00760097"

# The whole report, in order: the layout before the size, the FP model's
# parts after the rate they make up.
out="$("$params" --keys 1000 --bits_per_key 10 --encoding cache_local 2>&1)"
want="encoding           cache_local
keys               1000
bits/key           10.0000
k (probes)         6
lines (64 bytes)   20
filter bytes       1284
bits/key spent     10.2720
expected fp rate   0.00867532
  standard bloom   0.00760097"
if [ "$out" = "$want" ]; then pass; else fail "report differs:"; diff <(echo "$want") <(echo "$out"); fi

# 1M keys at 1%: the blocked layout needs more than the standard formula's
# 9.5851 bits/key (18721 lines, 1.14% by its model): the fewest lines whose
# model is at most 1%, give or take the 1/16 bit/key a policy may spare
# (kFpTargetSlackBits): 1/16 bit/key less misses it.
out="$("$params" --keys=1000000 --fp=0.01 --encoding=cache_local 2>&1)"
fp="$(awk '/^expected fp rate/ { print $NF }' <<<"$out")"
lines="$(awk '/^lines \(64 bytes\)/ { print $NF }' <<<"$out")"
if awk -v a="$fp" -v l="$lines" 'BEGIN { exit !(a <= 0.01 && a > 0.0099 && l > 18721) }'; then pass;
else fail "1M keys at --fp=0.01: fp $fp over $lines lines"; fi
bits="$(awk '/^bits\/key  / { print $NF }' <<<"$out")"
less="$(awk -v b="$bits" 'BEGIN { printf "%.6f", b - 1 / 16 }')"
out="$("$params" --keys=1000000 --bits_per_key="$less" --encoding=cache_local 2>&1)"
fewer="$(awk '/^expected fp rate/ { print $NF }' <<<"$out")"
if awk -v a="$fewer" 'BEGIN { exit !(a > 0.01) }'; then pass;
else fail "$less bits/key (1/16 less than $bits) still meets 1%: fp $fewer"; fi

# A small filter (LevelDB's per-block sizes): 20 keys at 10 bits/key need
# 200 bits, one narrow line of 25 bytes rather than 64, and all 20 keys sit
# in it: FP = (1 - (1 - 1/200)^(6 * 20))^6.
out="$("$params" --keys 20 --bits_per_key 10 --encoding cache_local 2>&1)"
expect_line "$out" "lines (25 bytes)   1"
expect_line "$out" "filter bytes       29"
expect_line "$out" "expected fp rate   0.00852923"

# 16 bits/key: k = 9.
out="$("$params" --keys=100000000 --bits_per_key=16 --encoding=cache_local 2>&1)"
expect_line "$out" "k (probes)         9"
expect_line "$out" "filter bytes       200000004"

# Default and explicit leveldb are the LevelDB encoding.
for args in "" "--encoding=leveldb"; do
  out="$("$params" --keys 1000 --bits_per_key 10 $args 2>&1)"
  expect_line "$out" "encoding           leveldb"
  expect_line "$out" "filter bytes       1251"
done

# The names come from --list_encodings, in its order: "'a', 'b' or 'c'".
names="$("$params" --list_encodings)"
check "--list_encodings starts with leveldb and cache_local" \
  test "$(head -n2 <<<"$names" | tr '\n' ' ')" = "leveldb cache_local "
list="$(sed "s/.*/'&'/" <<<"$names" | sed ':a;N;$!ba;s/\n\([^\n]*\)$/ or \1/;s/\n/, /g')"
expect_error "format=bogus is unknown; expected $list" \
  --keys 1000 --bits_per_key 10 --encoding=bogus

finish
