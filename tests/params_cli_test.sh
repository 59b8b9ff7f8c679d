#!/usr/bin/env bash
# sstfilter_params from the outside: the fields it prints for good input
# (values worked out by hand from the formulas in bloom_math.h), and a
# non-zero exit with a message naming the problem for bad input.
# Usage: params_cli_test.sh <path to sstfilter_params>
set -uo pipefail
params="$1"
tool="$params"
source "$(dirname "$0")/cli_test_lib.sh"

# 1M keys at 1%: the fewest bits/key at which the LevelDB format's model
# (a standard Bloom filter, k = floor(bits * 0.69), plus 32-bit hash
# collisions 1 - (1 - 2^-32)^1e6 = 0.000232804) is at most 1%. The 9.5851
# bits/key of the standard formula -ln(0.01)/ln(2)^2 give 1.037%; the tool
# spends more, and its figures are checked here against the formula.
if out="$("$params" --keys=1000000 --fp=0.01 2>&1)"; then pass;
else fail "--keys=1000000 --fp=0.01 exited non-zero: $out"; fi
echo "$out"
expect_line "$out" "encoding           leveldb"
expect_line "$out" "keys               1000000"
expect_line "$out" "target fp rate     0.01"
expect_line "$out" "k (probes)         6"
expect_line "$out" "  32-bit hash      0.000232804"
field() { awk -v label="$2" 'index($0, label) == 1 { print $NF }' <<<"$1"; }
bytes="$(field "$out" "filter bytes")"
fp="$(field "$out" "expected fp rate")"
# (1 - e^(-6n/m))^6 over the array's m = (bytes - 1) * 8 bits, with the hash.
by_hand="$(awk -v b="$bytes" 'BEGIN { m = (b - 1) * 8; s = (1 - exp(-6e6 / m)) ^ 6;
  h = 0.000232804; printf "%.6g", s + (1 - s) * h }')"
if awk -v a="$fp" -v b="$by_hand" 'BEGIN { exit !(a - b < 1e-8 && b - a < 1e-8) }'; then pass;
else fail "expected fp rate $fp, by hand from $bytes bytes: $by_hand"; fi
if awk -v a="$fp" 'BEGIN { exit !(a <= 0.01 && a > 0.0099) }'; then pass;
else fail "expected fp rate $fp: want at most the target 0.01, and close to it"; fi

# Space-separated flags work too; 1000 keys at 10 bits/key: 1250 + 1 bytes.
out="$("$params" --keys 1000 --bits_per_key 10 2>&1)"
expect_line "$out" "bits/key           10.0000"
expect_line "$out" "k (probes)         6"
expect_line "$out" "filter bytes       1251"
expect_line "$out" "  standard bloom   0.00843621"
if grep -q "target fp rate" <<<"$out"; then
  fail "target fp rate printed without --fp"
else pass; fi

# What is spent: 8 * 1251 bytes / 1000 keys.
expect_line "$out" "bits/key spent     10.0080"
if grep -q "^note" <<<"$out"; then fail "note printed for an uncapped filter"; else pass; fi

# The cache-local encoding caps a filter at 2^32 - 1 lines of 512 bits (about
# 2^41 bits): at 2^48 keys and 100 bits/key that is 2^41 / 2^48 = 0.0078
# bits/key spent, which the tool must say rather than only "100".
out="$("$params" --keys 281474976710656 --bits_per_key 100 --encoding cache_local 2>&1)"
expect_line "$out" "bits/key           100.0000"
expect_line "$out" "bits/key spent     0.0078"
expect_line "$out" "note               the encoding's size limit caps this filter: 0.0078 bits/key spent of 100.0000 asked"

# Tiny filters keep the 64-bit minimum: 9 bytes.
out="$("$params" --keys=1 --bits_per_key=2 2>&1)"
expect_line "$out" "filter bytes       9"
expect_line "$out" "k (probes)         1"

expect_error "--keys=0" --keys=0 --fp=0.01
expect_error "--keys=0" --fp=0.01
expect_error "--keys=-5" --keys=-5 --fp=0.01
expect_error "--keys=281474976710657: need a key count in [1, 281474976710656]" \
  --keys=281474976710657 --bits_per_key=10
expect_error "fp_rate=1 " --keys=10 --fp=1
expect_error "fp_rate=0 " --keys=10 --fp=0
expect_error "fp_rate=nan" --keys=10 --fp=nan
expect_error "fp_rate=inf" --keys=10 --fp=inf
expect_error "fp_rate=1e-30 is below what format=leveldb reaches at 100 bits/key" --keys=10 --fp=1e-30
expect_error "bits_per_key=-1" --keys=10 --bits_per_key=-1
expect_error "bits_per_key=0 " --keys=10 --bits_per_key=0
expect_error "bits_per_key=nan" --keys=10 --bits_per_key=nan
expect_error "bits_per_key=101" --keys=10 --bits_per_key=101
expect_error "exactly one of --fp and --bits_per_key" --keys=10 --fp=0.01 --bits_per_key=10
expect_error "exactly one of --fp and --bits_per_key" --keys=10
# An empty value is a bad value, not a missing flag.
expect_error "--bits_per_key=: empty value; need a number in (0, 100]" --keys=10 --bits_per_key=
expect_error "--fp=: empty value; need a rate" --keys=10 --fp=
expect_error "Unknown command line flag 'bogus'" --keys=10 --fp=0.01 --bogus=1
expect_error "Illegal value 'abc' specified for flag 'fp'" --keys=10 --fp=abc
expect_error "unexpected argument 'stray'" --keys=10 --fp=0.01 stray

# --help lists the tool's own flags (Abseil lists none for a file not named
# after the binary unless told which file defines them).
help="$("$params" --help 2>&1)"
check "--help lists --bits_per_key" grep -qF -- "--bits_per_key (" <<<"$help"
check "--help lists --keys" grep -qF -- "--keys (" <<<"$help"

finish
