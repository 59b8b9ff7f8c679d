#!/usr/bin/env bash
# The docs' tables of encodings name every encoding of the one list
# (sstfilter_params --list_encodings): in docs/encodings.md, a row of its
# "Option strings by encoding" table, a column of its "At a glance" table, a
# bullet of its "Which to choose" and a row of its "Final-byte tags".
# Usage: docs_encodings_test.sh <path to sstfilter_params> <source root>
set -uo pipefail
params="$1"; root="$2"
source "$(dirname "$0")/cli_test_lib.sh"
names="$("$params" --list_encodings)"
check "--list_encodings names encodings" test -n "$names"
strings="$(sed -n '/^## Option strings by encoding/,/^## /p' "$root/docs/encodings.md")"
glance="$(sed -n '/^## At a glance/,/^## /p' "$root/docs/encodings.md" | grep -m1 '^| |')"
choose="$(sed -n '/^## Which to choose/,/^## /p' "$root/docs/encodings.md")"
tags="$(sed -n '/^## Final-byte tags/,/^## /p' "$root/docs/encodings.md" | grep '^| ')"
for name in $names; do
  check "encodings.md's Option strings has a row for $name" grep -qE "^\| \`$name\`" <<<"$strings"
  check "encodings.md's At a glance has a column for $name" grep -qF "| \`$name\`" <<<"$glance"
  check "encodings.md's Which to choose has $name" grep -qF -- "- **\`$name\`**" <<<"$choose"
  check "encodings.md's Final-byte tags has a row for $name" grep -qE "^\| [^|]+ \| \`$name\`" <<<"$tags"
done
finish
