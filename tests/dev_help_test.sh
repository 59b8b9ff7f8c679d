#!/usr/bin/env bash
# tools/dev help names every verb tools/dev takes, and an unknown verb fails
# pointing at it: the verbs come from the script's own case statement.
set -euo pipefail
dev="${1:?usage: dev_help_test.sh tools/dev}"
fail() { echo "FAIL: $*" >&2; exit 1; }

help="$("$dev" help)"
verbs="$(awk '/^case "\$cmd" in/,/^esac/' "$dev" | grep -E '^  [a-z0-9|-]+\)' |
         sed 's/).*//; s/^  //' | tr '|' '\n' | grep -v '^-')"
[ "$(wc -l <<<"$verbs")" -ge 10 ] || fail "found too few verbs in $dev: $verbs"
for verb in $verbs; do
  grep -qE "^  tools/dev $verb( |$)" <<<"$help" || fail "tools/dev help does not name '$verb'"
done
for flag in -h --help; do
  [ "$("$dev" "$flag")" = "$help" ] || fail "tools/dev $flag differs from tools/dev help"
done
if out="$("$dev" no-such-verb 2>&1)"; then fail "an unknown verb succeeded"; fi
grep -q "unknown verb 'no-such-verb'.*tools/dev help" <<<"$out" || fail "unknown verb message: $out"
echo "dev_help_test: PASS"
