#!/usr/bin/env bash
# The contract check names the member an encoding lacks
# (filter/encoding_contract.h): building encoding_contract_probe.cc, whose
# reader has no HashMayMatch, must fail with exactly one static_assert, the
# one naming HashMayMatch.
# Usage: encoding_contract_test.sh <cmake> <build dir>
set -uo pipefail
source "$(dirname "$0")/cli_test_lib.sh"
out="$("$1" --build "$2" --target encoding_contract_probe 2>&1)"
check "the probe does not compile" test $? -ne 0
asserts="$(grep -c 'static assertion failed' <<<"$out")"
check "one static_assert fails ($asserts)" test "$asserts" -eq 1
check "it names HashMayMatch" grep -qF 'Reader: no bool HashMayMatch(Hash) const' <<<"$out"
[ "$failed" -eq 0 ] || grep -E 'error|static assertion' <<<"$out" | head -n 20
finish
