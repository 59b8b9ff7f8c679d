#!/usr/bin/env bash
# sstfilter_db_bench --shapes on tiny trees: every shape runs for a uniform
# and a per-level policy, each measure point is printed for each, with
# figures in range and the advisor's optimum; JSON has every point; a bad
# shape name is refused naming it and listing the shapes.
# Usage: db_bench_shapes_test.sh <path to sstfilter_db_bench> <path to sstfilter_sst>
set -uo pipefail
bench="$1"
sst="$2"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
tool="$bench"
source "$(dirname "$0")/cli_test_lib.sh"

# Each shape and its measure points (bench/db_bench/shape.cc), in order.
points=(leveled_dynamic:young leveled_dynamic:settled leveled_static:young
        leveled_static:settled universal:running universal:off fifo:settled l0_burst:burst
        reopen_wal:reopened reopen_wal:burst growth:1x growth:2x growth:4x
        shape_change:burst shape_change:settled)
policies=(sstfilter.bloom:10:cache_local sstfilter.bloom:10:cache_local:optimize_levels)
shapes="$(printf "%s\n" "${points[@]%%:*}" | uniq | paste -sd, - | sed "s/,/, /g")"

# 64 KB memtables and files, a 256 KB base level: each shape's tree from
# 10,000 keys. Direct reads off: the test may run on tmpfs.
out="$("$bench" --shapes=all --num=10000 --reads=4000 --present_reads=1000 \
       --write_buffer_size=65536 --target_file_size_base=65536 --max_bytes_for_level_base=262144 \
       --use_direct_reads=false --compare="$(IFS=,; echo "${policies[*]}")" \
       --json="$work/shapes.json" --db="$work/db" 2>"$work/progress")"
status=$?
echo "$out"
check "--shapes=all exits 0 (status $status; stderr: $(tail -n 3 "$work/progress"))" \
  test "$status" = 0
expect_machine_line "$out"
check "table header" grep -qE '^\| shape +\| point +\| policy +\| tree' <<<"$out"
for point in "${points[@]}"; do
  for policy in "${policies[@]}"; do
    row="$(grep -E "^\| ${point%%:*} +\| ${point#*:} +\| ${policy//./\\.} +\|" <<<"$out")"
    check "a row for ${point%%:*} at ${point#*:}, $policy" test -n "$row"
    # bits/entry, the advisor's optimum, its model against it, the absent
    # Gets' time, present blocks per Get.
    read -r bits optimum model_opt absent_us present \
      < <(awk -F'|' '{ print $6, $11, $13, $14, $15 }' <<<"$row")
    check "$point $policy: bits/entry in (6, 16) (${bits-})" \
      awk -v b="${bits-}" 'BEGIN { exit !(b > 6 && b < 16) }'
    check "$point $policy: the advisor's optimum (${optimum-})" \
      awk -v o="${optimum-}" 'BEGIN { exit !(o > 0 && o < 1) }' ||
      grep -E "projection at '${point#*:}' failed" "$work/progress"
    if ! check "$point $policy: model/opt a ratio (${model_opt-})" \
      awk -v r="${model_opt%x}" 'BEGIN { exit !(r > 0.5 && r < 5) }'; then
      # Which tables hold which bits: the advisor on the shape's DB as the
      # run left it (its last point), and the policy's plans in its LOG.
      index=0; [ "$policy" = "${policies[0]}" ] || index=1
      db="$work/db.${point%%:*}.$index"
      echo "--- the advisor on $db (the shape's last point):"
      "$sst" --db "$db" 2>&1 | head -n 60
      echo "--- its census's and policy's LOG lines:"
      grep -E 'sstfilter' "$db/LOG" | tail -n 40
    fi
    check "$point $policy: absent-key Get time > 0 us (${absent_us-})" \
      awk -v t="${absent_us-}" 'BEGIN { exit !(t > 0) }'
    check "$point $policy: present blocks per Get in [0, 1.5] (${present-})" \
      awk -v p="${present-}" 'BEGIN { exit !(p != "" && p >= 0 && p <= 1.5) }'
  done
done
check "rows: one per point and policy" \
  test "$(grep -cE '^\| [a-z0-9_]+ +\| [a-z0-9]+ +\| sstfilter' <<<"$out")" = \
       "$((${#points[@]} * ${#policies[@]}))"
check "per-level rows' ratios are against the first policy's" \
  grep -qE "/ref: against ${policies[0]//./\\.} at the same point" <<<"$out"
check "progress names shape, policy, step and what is left" grep -qE \
  '^\[[0-9]{2}:[0-9]{2}\] growth \(shape 7 of 8\), .* \(policy 2 of 2\): fill: [0-9]+ keys; 2 of 16 runs left' \
  "$work/progress"
check "json: every point" test "$(grep -o '"point":' "$work/shapes.json" | wc -l)" = \
  "$((${#points[@]} * ${#policies[@]}))"

# A skewed-traffic shape (not in --shapes=all): a measure point before the
# rewrites and after each round, for static and access-aware allocation;
# the optimum is the per-table one.
aware=sstfilter.bloom:10:cache_local:optimize_levels:access_aware
out="$("$bench" --shapes=skew_zipf_1.2 --num=10000 --reads=2000 --present_reads=500 \
       --round_reads=50000 --write_buffer_size=65536 --target_file_size_base=65536 \
       --max_bytes_for_level_base=262144 --use_direct_reads=false \
       --compare="${policies[1]},$aware" 2>"$work/progress")"
status=$?
echo "$out"
check "--shapes=skew_zipf_1.2 exits 0 (status $status; stderr: $(tail -n 3 "$work/progress"))" \
  test "$status" = 0
for point in settled "round 1" "round 2" "round 3" "round 4" "round 5"; do
  for policy in "${policies[1]}" "$aware"; do
    row="$(grep -E "^\| skew_zipf_1\.2 +\| $point +\| ${policy//./\\.} +\|" <<<"$out")"
    read -r bits optimum < <(awk -F'|' '{ print $6, $11 }' <<<"$row")
    check "skew_zipf_1.2 $point $policy: bits/entry in (6, 16) (${bits-})" \
      awk -v b="${bits-}" 'BEGIN { exit !(b > 6 && b < 16) }'
    check "skew_zipf_1.2 $point $policy: the per-table optimum (${optimum-})" \
      awk -v o="${optimum-}" 'BEGIN { exit !(o > 0 && o < 1) }'
  done
done
check "the skewed shapes' optimum is per table" grep -q "access-aware allocation's, table by table" \
  <<<"$out"

# A learning phase (--shape_learn_gets): each point measured again after
# absent Gets with the census's rebuild loop let go; the settled tree's
# per-level filters are rewritten to its plan, no more filter bits than
# before or than the uniform policy's, and the bytes rewritten against the
# DB's own.
out="$("$bench" --shapes=leveled_dynamic --num=10000 --reads=4000 --present_reads=1000 \
       --shape_learn_gets=100000 --write_buffer_size=65536 --target_file_size_base=65536 \
       --max_bytes_for_level_base=262144 --use_direct_reads=false \
       --compare="$(IFS=,; echo "${policies[*]}")" --json="$work/learn.json" \
       --db="$work/learn" 2>"$work/progress")"
status=$?
echo "$out"
check "--shape_learn_gets exits 0 (status $status; stderr: $(tail -n 3 "$work/progress"))" \
  test "$status" = 0
row_of() { grep -E "^\| leveled_dynamic +\| $1 +\| ${2//./\\.} +\|" <<<"$out"; }
for point in young settled; do
  before="$(row_of "$point" "${policies[1]}")"
  after="$(row_of "$point\+learn" "${policies[1]}")"
  read -r bits_before fp_before < <(awk -F'|' '{ print $6, $8 }' <<<"$before")
  read -r bits_after fp_after rewrote < <(awk -F'|' '{ print $6, $8, $17 }' <<<"$after")
  ref_bits="$(row_of "$point\+learn" "${policies[0]}" | awk -F'|' '{ print $6 }')"
  check "$point+learn: a row, the bytes rewritten a ratio (${rewrote-})" \
    grep -qE '^ *[0-9.]+x *$' <<<"${rewrote-}"
  # The loop frees bits where the tables below L0 hold more than the plan
  # gives them (L0 aside), and adds bits where that saves reads.
  check "$point+learn: bits/entry no more than before or the uniform policy's 1.03x (${bits_after-} vs ${bits_before-}, ${ref_bits-})" \
    awk -v a="${bits_after-}" -v b="${bits_before-}" -v r="${ref_bits-}" \
      'BEGIN { exit !(a > 0 && (a <= b + 0.005 || a <= 1.03 * r)) }'
  check "$point+learn: FP/absent no more than before where no bits were freed (${fp_after-} vs ${fp_before-})" \
    awk -v a="${fp_after-}" -v b="${fp_before-}" -v ba="${bits_after-}" -v bb="${bits_before-}" \
      'BEGIN { exit !(a > 0 && (ba < bb - 0.005 || a <= b * 1.05)) }'
done
check "the settled tree was rewritten in the learning phase" \
  grep -qE '"rebuilt_tables": *[1-9]' "$work/learn.json"
check "a point without learning says '-' for the bytes rewritten" \
  grep -qE ' - +\|$' <<<"$(row_of settled "${policies[1]}")"
expect_error "--shape_learn_gets=-1: expected 0 (none) or more Gets" --shapes=fifo \
  --shape_learn_gets=-1

skewed="skew_uniform, skew_zipf_0.8, skew_zipf_0.99, skew_zipf_1.2, skew_recent, skew_shift"
expect_error "--shapes: unknown shape 'bogus'; expected all, skewed, or some of $shapes, $skewed" \
  --shapes=leveled_dynamic,bogus
expect_error "--shapes: shape 'fifo' is listed twice" --shapes=fifo,fifo
expect_error "it takes no --scenario" --shapes=fifo --scenario=disk
finish
