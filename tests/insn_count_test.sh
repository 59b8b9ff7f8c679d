#!/usr/bin/env bash
# tools/insn_count.sh against logs whose counts are known: a hand-written
# qemu log (blocks of 3 and 2 instructions run 4 times and once: 14), then
# the whole table with a stand-in for qemu and the query loop that executes
# a 100-instruction setup once and a 5-instruction block per query, plus
# 2 per query in a library block: every cell must read 7.0.
set -euo pipefail
script="${1:?usage: insn_count_test.sh tools/insn_count.sh}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cat > "$work/qemu.log" <<'LOG'
----------------
IN: main
0x00400100:  d10043ff  sub      sp, sp, #0x10
0x00400104:  b9000fff  str      wzr, [sp, #0xc]
0x00400108:  52800000  movz     w0, #0

Trace 0: 0x7f0000000100 [0000000001009331/0000000000400100/00000001/00000200] main
Trace 0: 0x7f0000000100 [0000000001009331/0000000000400100/00000001/00000200] main
----------------
IN: 
0x00500000:  b9400fe1  ldr      w1, [sp, #0xc]
0x00500004:  0b000021  add      w1, w1, w0

Trace 0: 0x7f0000000200 [0000000001009331/0000000000500000/00000001/00000200] 
Trace 0: 0x7f0000000100 [0000000001009331/0000000000400100/00000001/00000200] main
Trace 0: 0x7f0000000100 [0000000001009331/0000000000400100/00000001/00000200] main
LOG
got="$("$script" --count-log "$work/qemu.log" | sort)"
want="$(printf '%s\n' "(shared library) 2" "TOTAL 14" "main 12" | sort)"
[ "$got" = "$want" ] || fail "count of the hand-written log: got '$got', want '$want'"

# The stand-in: writes a log for --queries=N as qemu would.
cat > "$work/program" <<'PROG'
#!/usr/bin/env bash
set -euo pipefail
[ "${1:-}" = --list_encodings ] && { printf '%s\n' leveldb cache_local; exit 0; }
n=0
for a in "$@"; do case "$a" in --queries=*) n="${a#--queries=}" ;; esac; done
{
  echo "IN: setup"
  for i in $(seq 100); do printf '0x%08x:  00000000  nop\n' $((0x1000 + 4 * i)); done
  echo
  echo "Trace 0: 0x1 [0/0000000000001004/0/0] setup"
  echo "IN: query"
  for i in 1 2 3 4 5; do printf '0x%08x:  00000000  nop\n' $((0x2000 + 4 * i)); done
  echo
  echo "IN: "
  printf '0x%08x:  00000000  nop\n' 0x3000 0x3004
  echo
  for ((i = 0; i < n; i++)); do
    echo "Trace 0: 0x2 [0/0000000000002004/0/0] query"
    echo "Trace 0: 0x3 [0/0000000000003000/0/0] "
  done
} > "$QEMU_LOG_FILENAME"
[ "$QEMU_LOG" = in_asm,exec,nochain ] || { echo "stand-in: QEMU_LOG is '$QEMU_LOG'" >&2; exit 1; }
PROG
chmod +x "$work/program"
table="$(INSN_DETAIL=1 "$script" "$work/program" 50)"
cells="$(grep ' | ' <<<"$table" | grep -v '^filter' | cut -d'|' -f2- | tr '|' '\n' | tr -d ' ' |
         sort -u)"
[ "$cells" = "7.0" ] || fail "every cell should read 7.0, got: $cells"$'\n'"$table"
rows="$(grep ' | ' <<<"$table" | grep -v '^filter' | cut -d'|' -f1 | sed 's/ *$//' | tr '\n' ,)"
want_rows="leveldb,leveldb, scalar,cache_local,cache_local, scalar,RocksDB FastLocalBloom,RocksDB Ribbon,"
[ "$rows" = "$want_rows" ] || fail "rows: got '$rows', want '$want_rows'"
grep -q '^ *5.0  query$' <<<"$table" || fail "the detail should give 5.0 to query"$'\n'"$table"
grep -q '^ *2.0  (shared library)$' <<<"$table" || fail "the detail should give 2.0 to (shared library)"
"$script" "$work/program" 0 2>/dev/null && fail "QUERIES 0 should be refused"
echo "insn_count_test: PASS"
