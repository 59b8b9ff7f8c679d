// Per-function instruction-set targets for the SIMD kernel files, so the
// rest of the build stays baseline x86-64. Include it only from those files
// (it turns a warning off for the rest of the file).
#ifndef SSTFILTER_FILTER_X86_SIMD_TARGET_H_
#define SSTFILTER_FILTER_X86_SIMD_TARGET_H_

#include "filter/simd_level.h"

#ifdef SSTFILTER_X86_SIMD_TARGETS
#include <immintrin.h>

#define SSTFILTER_AVX2 __attribute__((target("avx2")))
#define SSTFILTER_AVX512 __attribute__((target("avx512f")))

// GCC 12 warns about the deliberately undefined source operand inside its
// own AVX-512 intrinsics (the __Y of _mm512_undefined_*), not about ours.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#endif  // x86-64 with GCC or Clang

#endif  // SSTFILTER_FILTER_X86_SIMD_TARGET_H_
