// Arithmetic of the cache-local Bloom encoding: sizes, k and FP rate.
//
// The layout is a blocked Bloom filter (Putze, Sanders, Singler, "Cache-,
// hash- and space-efficient Bloom filters", 2007): each key sets k bits of
// one 512-bit line. Keys spread over lines unevenly, line loads are Poisson
// with mean lambda = n / lines, and overfull lines dominate the FP rate, so
// the formula is a Poisson mixture of per-line standard Bloom filters:
//   FP = sum_L Poisson(L; lambda) * (1 - (1 - 1/512)^(k L))^k.
// This is higher than the global (1 - e^(-kn/m))^k, and its best k is lower
// than bits_per_key * ln 2 (6 rather than 7 at 10 bits/key).
#ifndef SSTFILTER_FILTER_CACHE_LOCAL_MATH_H_
#define SSTFILTER_FILTER_CACHE_LOCAL_MATH_H_

#include <cstddef>
#include <cstdint>

namespace sstfilter {

// Lines of a filter for n keys: ceil(n * bits_per_key / 512), at least 1 for
// n > 0, 0 for n = 0, and at most 2^32 - 1 (256 GiB).
uint64_t CacheLocalNumLines(size_t num_keys, double bits_per_key);

// Expected FP rate of a blocked Bloom filter with 512-bit lines, mean line
// load lambda (keys per line) and k probes, by the Poisson mixture above.
double BlockedBloomFpRate(double keys_per_line, int num_probes);

// Relative FP-rate slack CacheLocalNumProbes trades for fewer probes.
inline constexpr double kProbeTolerance = 0.01;

// k of the cache-local encoding: the fewest probes, in [1, 32], whose
// BlockedBloomFpRate at lambda = 512 / bits_per_key is within 1% of the
// minimum over k (6 at 10 bits/key, 9 at 16). REQUIRES: bits_per_key > 0.
int CacheLocalNumProbes(double bits_per_key);

// Expected FP rate of a cache-local filter built for n keys with
// bits_per_key (real line count after rounding, the k the builder picks).
// The 64-bit hash adds about lambda / 2^32 (two keys of one line alike in
// their 32 probe bits), below 1e-8 for every sensible size: left out.
double CacheLocalExpectedFpRate(size_t num_keys, double bits_per_key);

// Expected FP rate of a filter already built: n keys in num_lines lines
// with num_probes (what the SST inspector reads from a filter's trailer).
double CacheLocalFilterFpRate(size_t num_keys, uint64_t num_lines, int num_probes);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_CACHE_LOCAL_MATH_H_
