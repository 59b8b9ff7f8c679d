# Helpers for the command-line tests (sourced, not run). Each helper counts
# one check in $passed or $failed and prints FAIL lines naming what differed;
# a test script ends with `finish`, whose exit status is the verdict.
# REQUIRES: $tool is set to the binary under test before expect_error runs.
passed=0; failed=0

pass() { passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

check() {  # check <description> <command...>: the command must succeed; its status.
  local what="$1"; shift
  if "$@"; then pass; else fail "$what"; return 1; fi
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

# The architecture the programs under test were built for: the build
# machine's, or in a cross build the one CMake names (tests/CMakeLists.txt
# sets SSTFILTER_TEST_ARCH; the programs then run under an emulator).
target_arch() { echo "${SSTFILTER_TEST_ARCH:-$(uname -m)}"; }
# The word of the CPU's identification in the machine line ("family 0x19").
cpu_id_word() { if [ "$(target_arch)" = aarch64 ]; then echo implementer; else echo family; fi; }

# The SIMD level this CPU's flags allow (read independently of the code
# under test), capped by SSTFILTER_SIMD as the library caps it.
cpu_simd_level() {
  local level=scalar
  # Every aarch64 CPU has NEON; other architectures run scalar kernels.
  case "$(target_arch)" in
    x86_64) ;;
    aarch64)  # Any other level's name caps neon (filter/simd_level.h).
      case "${SSTFILTER_SIMD:-neon}" in scalar|avx2|avx512) echo scalar ;; *) echo neon ;; esac
      return ;;
    *) echo scalar; return ;;
  esac
  grep -qw avx2 /proc/cpuinfo && level=avx2
  grep -qw avx512f /proc/cpuinfo && level=avx512
  case "${SSTFILTER_SIMD:-}" in
    scalar) level=scalar ;;
    avx2) [ "$level" = avx512 ] && level=avx2 ;;
  esac
  echo "$level"
}

# What the machine line names as each encoding's kernels at that level, for
# the encodings whose kernels this file knows: compact's single keys are
# always scalar, and it has no NEON kernel; banded's AVX-512 kernel needs
# VPOPCNTQ, else AVX2's serve. One "<encoding> <kernels>" a line.
expected_kernels() {
  local level; level="$(cpu_simd_level)"
  local compact="$level batched (16+ keys) single keys scalar" banded="$level"
  [ "$level" = scalar ] || [ "$level" = neon ] && compact=scalar
  if [ "$level" = avx512 ]; then
    banded=avx2; grep -qw avx512_vpopcntdq /proc/cpuinfo && banded=avx512-vpopcntq
  fi
  printf '%s\n' "leveldb scalar" "cache_local $level" "compact $compact" "banded $banded"
}

# The kernels part of a machine line, one "<encoding> <kernels>" a line.
# After it the line may name SSTFILTER_SIMD's cap, in parentheses.
kernels_of() {
  grep -m1 -o 'kernels: .*' <<<"$1" | sed -E 's/^kernels: //; s/ \(SSTFILTER_SIMD.*$//; s/, /\n/g'
}

expect_machine_line() {  # expect_machine_line <output>: CPU and kernels named.
  local id='family 0x[0-9a-f]+ model 0x[0-9a-f]+' named expected
  [ "$(target_arch)" = aarch64 ] && id='implementer 0x[0-9a-f]+ part 0x[0-9a-f]+'
  check "names the CPU" grep -qE "^CPU: .+ \\($id" <<<"$1"
  named="$(kernels_of "$1")"
  while read -r expected; do
    check "names ${expected%% *}'s kernels ($expected)" grep -qxF "$expected" <<<"$named"
  done < <(expected_kernels)
}

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
