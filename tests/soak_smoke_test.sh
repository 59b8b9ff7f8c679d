#!/usr/bin/env bash
# A few seconds of sstfilter_soak: it must exit 0, report 0 false negatives
# over exactly the checks asked for, cover every format and both query
# paths, and refuse bad flags with exit status 2.
set -uo pipefail
tool="$1"
source "$(dirname "$0")/cli_test_lib.sh"

out="$("$tool" --checks=3000000 --max_keys=100000 2>&1)"; status=$?
check "soak exits 0 (got $status)" test "$status" -eq 0
expect_line "$out" "false negatives: 0 of 3000000 checks"
# The encodings of the list, as the soak's refusal of an unknown one names
# them ("expected 'leveldb', 'cache_local', 'compact' or 'banded'"): each has a row
# per query path.
encodings=($("$tool" --checks=100 --encodings=ribbon 2>&1 | sed -n 's/.*expected //p' |
             grep -oE "'[a-z0-9_]+'" | tr -d "'"))
check "the encodings named (${encodings[*]})" test "${#encodings[@]}" -ge 3
for encoding in "${encodings[@]}"; do
  for path in single batch; do
    check "a row for $encoding, $path" grep -qE -- "^$encoding +[a-z0-9-]+ +$path +[0-9]+ +0 " <<<"$out"
  done
done
[ "$failed" -eq 0 ] || echo "$out"

expect_status2() {  # expect_status2 <text the message must contain> <args...>
  local text="$1" msg st; shift
  msg="$("$tool" "$@" 2>&1)"; st=$?
  if [ "$st" -eq 2 ] && grep -qF -- "$text" <<<"$msg"; then pass
  else fail "'$*' gave status $st, message: $msg"; fi
}
expect_status2 "format=ribbon is unknown" --checks=100 --encodings=ribbon
expect_status2 "not a range" --checks=100 --min_keys=10 --max_keys=5
expect_status2 "without checks" --checks=3
expect_status2 "is not in [0, 100]" --checks=100 --absent_ratio=-1
finish
