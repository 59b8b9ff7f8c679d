#!/usr/bin/env bash
# Runs a ThreadSanitizer-built test binary and fails on every TSan report
# that involves project code.
#
#   tsan_check.sh [--expect-project-race] PROJECT_ROOT BINARY [ARGS...]
#
# Why a filter on the log and not a suppressions file: only our code is
# instrumented; RocksDB is Debian's uninstrumented librocksdb. TSan sees
# RocksDB only through the interceptors it calls (memcpy, operator new,
# pthread_*), not through its atomics (its write group, memtable skip list,
# reference counts), so it reports races inside RocksDB that are not races:
# 20 reports in one run of concurrency_test, every one of them with both
# accesses made by RocksDB or by libstdc++ on RocksDB's behalf.
# - A suppression matches a function, file or module name in ANY frame, and
#   every report has a librocksdb frame (RocksDB calls our filter, we call
#   RocksDB), so "race:librocksdb.so" would hide our races too.
# - "called_from_lib:librocksdb.so" skips every interceptor RocksDB calls:
#   its memcpy of our bytes (a race with our code goes unseen) and its mutex
#   locks (the ordering of our own accesses is lost).
# - "Any frame in a project file" cannot decide either: TSan records no
#   frame of uninstrumented code except an interceptor's direct caller, so
#   an access RocksDB makes on a reader thread shows the test's call of
#   DB::Get right under RocksDB's frame, as if the test had made it.
# What decides is which code made each racing access: the innermost frame
# of its stack that is not TSan's runtime (libtsan: the interceptor itself).
# A report is the project's when, for at least one of its access stacks
# (the racing accesses, a lock-order cycle's acquisitions, ...; not where
# the memory was allocated, a mutex created or a thread started), that
# frame is in BINARY (our instrumented code, headers inlined into it, and
# the test framework) or in a file under PROJECT_ROOT; or when TSan could
# not restore an access stack (unknown is not foreign). Any such report
# fails the run and is printed in full. Every other report is counted and
# its summary printed, then ignored.
# One RocksDB ordering our own objects depend on, that RocksDB destroys a
# filter reader only after its last call returned, is told to TSan by the
# reader itself (table/rocksdb/host_ordering.h); without it, a run now and
# then reports our reader's destruction racing with its last MayMatch.
# Blind spot: a race whose two accesses both happen inside shared-library
# code the project calls (e.g. two of our threads appending to one
# std::string: the append is compiled in libstdc++.so) reads as foreign.
#
# The run keeps going after a report (halt_on_error=0: a foreign report must
# not stop the run before a project one); history_size=7 keeps enough history
# for TSan to restore the previous access's stack. The test's own exit
# status stays its own (exitcode=0: TSan does not replace it), and any
# failure of the test fails the run.
#
# --expect-project-race: the positive control. Passes only when the test
# passed and at least one project report was found, i.e. when the decision
# above would have failed the run.
set -uo pipefail

expect_race=no
if [ "${1:-}" = --expect-project-race ]; then expect_race=yes; shift; fi
[ $# -ge 2 ] || { echo "usage: $0 [--expect-project-race] PROJECT_ROOT BINARY [ARGS...]" >&2; exit 2; }
root="$(cd "$1" && pwd)"; binary="$2"; shift 2

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
TSAN_OPTIONS="halt_on_error=0:exitcode=0:second_deadlock_stack=1:history_size=7:log_path=$logs/tsan${TSAN_OPTIONS:+:$TSAN_OPTIONS}" \
  "$binary" "$@"
status=$?

# Prints each report classified; the last line is "counts <project> <other> <announced>".
classify() {
  local full=yes; [ "$expect_race" = yes ] && full=no  # The control's races: summaries only.
  awk -v root="$root" -v bin="$(basename "$binary")" -v full="$full" '
    function flush() {
      if (!in_report) return
      if (waiting) project = 1  # An access stack with no frame outside the runtime.
      if (project) {
        nproject++
        if (full == "yes") printf "%s", text
        print "tsan_check: project report: " summary
      }
      else { nother++; print "tsan_check: ignored (no access made by project code): " summary }
      in_report = 0
    }
    # "#3 func file:line (module+0x1f)": the module, "libtsan.so.2" etc.
    function module(line,   m) {
      m = line; sub(/.*\(/, "", m); sub(/\+0x[0-9a-f]+\)$/, "", m)
      return m
    }
    /^WARNING: ThreadSanitizer:/ {
      flush(); in_report = 1; project = 0; waiting = 0; text = ""; summary = $0
    }
    /^ThreadSanitizer: reported [0-9]+ warnings/ { announced += $3 }
    in_report {
      text = text $0 "\n"
      if ($0 ~ /^  [^ ]/) {  # A section header; its stack follows.
        if (waiting) project = 1
        # A stack follows a header ending in ":" ("Mutex M1 is already
        # destroyed." has none); context stacks do not decide.
        waiting = $0 ~ /:$/ && !($0 ~ /^  Location is/ || $0 ~ /^  Thread .* created by/ ||
                                 $0 ~ /^  Mutex M[0-9]+ .*created at:/)
      }
      if (waiting && $0 ~ /^    #[0-9]+ / && module($0) !~ /^libtsan\.so/) {
        if (module($0) == bin || index($0, " " root "/")) project = 1
        waiting = 0  # The frame that made the access decided.
      }
      if ($0 ~ /^    \[failed to restore the stack\]/ && waiting) { project = 1; waiting = 0 }
      if ($0 ~ /^SUMMARY: ThreadSanitizer:/) { summary = $0; flush() }
    }
    END { flush(); printf "counts %d %d %d\n", nproject, nother, announced }
  ' "$logs"/tsan.* 2>/dev/null
}

# TSAN_CHECK_LOG=file keeps every report in full, the ignored ones too.
[ -z "${TSAN_CHECK_LOG:-}" ] || cat "$logs"/tsan.* > "$TSAN_CHECK_LOG" 2>/dev/null || true
if compgen -G "$logs/tsan.*" >/dev/null; then
  output="$(classify)"
else
  output="counts 0 0 0"
fi
printf '%s\n' "$output" | sed '$d'
read -r _ nproject nother announced < <(printf '%s\n' "$output" | tail -n1)
echo "tsan_check: $((nproject + nother)) report(s): $nproject project (an access made by project code), $nother foreign (ignored)"

if [ $((nproject + nother)) -ne "$announced" ]; then
  echo "tsan_check: FAIL: TSan announced $announced warning(s), $((nproject + nother)) parsed" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "tsan_check: FAIL: $(basename "$binary") exited with status $status" >&2
  exit 1
fi
if [ "$expect_race" = yes ]; then
  [ "$nproject" -gt 0 ] && { echo "tsan_check: the deliberate race was reported as the project's"; exit 0; }
  echo "tsan_check: FAIL: no project report for the deliberate race" >&2
  exit 1
fi
[ "$nproject" -eq 0 ] || { echo "tsan_check: FAIL: $nproject project report(s)" >&2; exit 1; }
