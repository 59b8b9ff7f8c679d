// Kernels of the cache-local encoding (add hashes to lines, probe lines) in
// a portable scalar form and SIMD forms chosen at run time by CPU.
//
// Every kernel writes the same bytes and gives the same answers as the
// scalar one: the format is defined by cache_local/probes.h alone. The SIMD
// forms live in their own files compiled with per-function target
// attributes, so the rest of the build stays baseline x86-64.
#ifndef SSTFILTER_FILTER_CACHE_LOCAL_KERNELS_H_
#define SSTFILTER_FILTER_CACHE_LOCAL_KERNELS_H_

#include <cstddef>
#include <cstdint>

#include "filter/simd_level.h"

namespace sstfilter {

// One set of kernels. `array` holds num_lines 64-byte lines (any alignment);
// REQUIRES: 1 <= num_lines, 1 <= k <= cache_local::kMaxProbes.
struct CacheLocalKernels {
  // Sets the probes of hashes[0, n) (prefetching a few keys ahead).
  void (*add)(const uint64_t* hashes, size_t n, int k, char* array,
              uint32_t num_lines);
  // out[i] = whether hashes[i] may be in the filter. Callers prefetch.
  void (*query)(const uint64_t* hashes, size_t n, int k, const char* array,
                uint32_t num_lines, bool* out);
  // The answer for one hash.
  bool (*may_match)(uint64_t hash, int k, const char* array, uint32_t num_lines);
};

// REQUIRES: level is supported (see ClampSimdLevel).
const CacheLocalKernels& GetCacheLocalKernels(SimdLevel level);

// Defines the kernels of one instruction set around its line functions
// (cache_local/probes.h: AddHashes / QueryHashes give the loops):
//   NAME##Add, NAME##Query, NAME##MayMatch and k##NAME##Kernels.
// LINE_MAY_MATCH checks a line in batches (their lines prefetched),
// LINE_MAY_MATCH_ONE for a single key: the same answer, but a single query
// out of cache waits on its miss, and what depends on the line bounds how
// many queries overlap (the scalar one returns at the first clear probe).
// A macro because each kernel needs its set's target attribute (TARGET,
// empty for the baseline), which a template cannot take as a parameter; the
// line functions then inline into the loops. Expand it in an unnamed
// namespace of a file that includes cache_local/probes.h.
#define SSTFILTER_CACHE_LOCAL_KERNELS(TARGET, NAME, LINE_ADD, LINE_MAY_MATCH,              \
                                      LINE_MAY_MATCH_ONE)                                  \
  TARGET void NAME##Add(const uint64_t* hashes, size_t n, int k, char* array,             \
                        uint32_t num_lines) {                                              \
    ::sstfilter::cache_local::AddHashes(hashes, n, k, array, num_lines, LINE_ADD);         \
  }                                                                                        \
  TARGET void NAME##Query(const uint64_t* hashes, size_t n, int k, const char* array,     \
                          uint32_t num_lines, bool* out) {                                 \
    ::sstfilter::cache_local::QueryHashes(hashes, n, k, array, num_lines, out,             \
                                          LINE_MAY_MATCH);                                 \
  }                                                                                        \
  TARGET bool NAME##MayMatch(uint64_t h, int k, const char* array, uint32_t num_lines) {  \
    return LINE_MAY_MATCH_ONE(array + ::sstfilter::cache_local::LineOffset(h, num_lines), \
                              ::sstfilter::cache_local::ProbeSeed(h), k);                  \
  }                                                                                        \
  constexpr CacheLocalKernels k##NAME##Kernels = {NAME##Add, NAME##Query, NAME##MayMatch}

namespace cache_local_internal {
// Defined in cache_local/avx2.cc, avx512.cc and neon.cc; nullptr where the
// compiler cannot target the instruction set.
const CacheLocalKernels* Avx2Kernels();
const CacheLocalKernels* Avx512Kernels();
const CacheLocalKernels* NeonKernels();
}  // namespace cache_local_internal

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_CACHE_LOCAL_KERNELS_H_
