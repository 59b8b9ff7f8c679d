# Helpers for the command-line tests (sourced, not run). Each helper counts
# one check in $passed or $failed and prints FAIL lines naming what differed;
# a test script ends with `finish`, whose exit status is the verdict.
# REQUIRES: $tool is set to the binary under test before expect_error runs.
passed=0; failed=0

pass() { passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

check() {  # check <description> <command...>: the command must succeed.
  local what="$1"; shift
  if "$@"; then pass; else fail "$what"; fi
}

expect_line() {  # expect_line <output> <exact line>
  if grep -qxF -- "$2" <<<"$1"; then pass; else fail "no line '$2' in:"; echo "$1"; fi
}

expect_error() {  # expect_error <text the message must contain> <args of $tool...>
  local text="$1"; shift
  local out
  if out="$("$tool" "$@" 2>&1)"; then fail "'$*' exited 0: $out"; return; fi
  if grep -qF -- "$text" <<<"$out"; then pass; else fail "'$*' error lacks '$text': $out"; fi
}

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
