// Which SIMD instruction set a kernel uses, and which ones this CPU and
// this build can run. Every encoding with SIMD kernels picks its kernels by
// one SimdLevel; every kernel gives the scalar kernel's bytes and answers.
#ifndef SSTFILTER_FILTER_SIMD_LEVEL_H_
#define SSTFILTER_FILTER_SIMD_LEVEL_H_

#include <string_view>
#include <vector>

// Whether this compiler can build x86 kernels with per-function target
// attributes (filter/x86_simd_target.h). Without it only kScalar exists.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SSTFILTER_X86_SIMD_TARGETS 1
#endif

namespace sstfilter {

// Ordered: a higher level needs more of the CPU.
enum class SimdLevel { kScalar, kAvx2, kAvx512 };

std::string_view SimdLevelName(SimdLevel level);
// Levels this CPU runs and this build has kernels for, kScalar first; tests
// and benchmarks loop over them.
const std::vector<SimdLevel>& SupportedSimdLevels();
// The level used when none is asked for: the highest supported.
SimdLevel BestSimdLevel();
// `level` if supported, else the best supported level below it.
SimdLevel ClampSimdLevel(SimdLevel level);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_SIMD_LEVEL_H_
