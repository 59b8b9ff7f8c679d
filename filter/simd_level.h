// Which SIMD instruction set a kernel uses, and which ones this CPU and
// this build can run. Every encoding with SIMD kernels picks its kernels by
// one SimdLevel; every kernel gives the scalar kernel's bytes and answers.
//
// The environment variable SSTFILTER_SIMD (scalar, avx2, avx512 or neon) caps the
// levels of the whole process, read once at first use: to measure or test
// an AVX2-only or scalar machine's paths on a CPU that has more, or to step
// around a kernel in the field. Filter bytes and answers do not change.
#ifndef SSTFILTER_FILTER_SIMD_LEVEL_H_
#define SSTFILTER_FILTER_SIMD_LEVEL_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

// Whether this compiler can build x86 kernels with per-function target
// attributes (filter/x86_simd_target.h). Without it only kScalar exists.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SSTFILTER_X86_SIMD_TARGETS 1
#endif
// Whether this build has 64-bit ARM's NEON (Advanced SIMD) kernels: part of
// every aarch64 CPU, so baseline code, no target attribute.
#if defined(__aarch64__) && defined(__ARM_NEON)
#define SSTFILTER_ARM64_NEON 1
#endif

namespace sstfilter {

// Ordered within one architecture: a higher level needs more of the CPU.
// A CPU supports kScalar and levels of its own architecture only (x86-64:
// kAvx2, kAvx512; aarch64: kNeon), so capping or clamping to another
// architecture's level leaves kScalar (x86 names on ARM) or changes
// nothing (neon on x86).
enum class SimdLevel { kScalar, kAvx2, kAvx512, kNeon };

std::string_view SimdLevelName(SimdLevel level);
// The level a name (SimdLevelName's) gives, nullopt for any other text.
std::optional<SimdLevel> ParseSimdLevelName(std::string_view name);

// Levels this CPU runs and this build has kernels for, up to the
// SSTFILTER_SIMD cap, kScalar first; tests and benchmarks loop over them.
const std::vector<SimdLevel>& SupportedSimdLevels();
// The level used when none is asked for: the highest supported.
SimdLevel BestSimdLevel();
// `level` if supported, else the best supported level below it.
SimdLevel ClampSimdLevel(SimdLevel level);
// What SSTFILTER_SIMD did to this process, for tools to print: empty when
// it is unset; else e.g. "SSTFILTER_SIMD=avx2 caps avx512", or a complaint
// naming the value when it is not a level (it is then ignored).
const std::string& SimdCapNote();

namespace simd_level_internal {
// The levels `detected` (ascending, kScalar first) capped by the text of
// SSTFILTER_SIMD (nullptr: unset), and the note SimdCapNote gives for it.
struct CappedLevels {
  std::vector<SimdLevel> levels;
  std::string note;
  bool ignored = false;  // The value is not a level.
};
CappedLevels CapLevels(const std::vector<SimdLevel>& detected, const char* cap);
}  // namespace simd_level_internal

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_SIMD_LEVEL_H_
