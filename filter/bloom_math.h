// Bloom filter arithmetic: probe counts, sizes and false-positive rates.
//
// Pure functions, shared by the encodings, the parameter tool, the SST
// inspector and the benchmarks, so that every place quotes the same theory.
#ifndef SSTFILTER_FILTER_BLOOM_MATH_H_
#define SSTFILTER_FILTER_BLOOM_MATH_H_

#include <cstddef>

namespace sstfilter {

// Largest bits/key any policy accepts. Past ~44 bits/key the LevelDB format
// saturates at k = 30 and more memory buys almost nothing.
inline constexpr double kMaxBitsPerKey = 100.0;

// Most keys the size inversions (MaxEntriesForSize) ever answer: 2^48, far
// past any SST or partition, and small enough that n * kMaxBitsPerKey and
// every size computed from n stay exact in size_t and double.
inline constexpr size_t kMaxFilterEntries = size_t{1} << 48;

// The largest n in [0, kMaxFilterEntries] with fits(n), by binary search
// (48 steps). REQUIRES: fits is monotone (true up to some n, false after)
// and fits(0). Size inversions use this rather than a real-valued estimate
// plus correction, whose correction can take ~1 / bits_per_key steps.
template <typename Fits>
size_t LargestFittingEntries(Fits&& fits) {
  if (fits(kMaxFilterEntries)) return kMaxFilterEntries;
  size_t lo = 0, hi = kMaxFilterEntries;  // fits(lo), !fits(hi).
  while (hi - lo > 1) {
    const size_t mid = lo + (hi - lo) / 2;
    (fits(mid) ? lo : hi) = mid;
  }
  return lo;
}

// k of the LevelDB format: floor(bits_per_key * ln 2), clamped to [1, 30]
// (0.69 =~ ln(2) minimises the FP rate of a standard Bloom filter).
int LevelDbNumProbes(double bits_per_key);

// Bits of the LevelDB format's array for n keys: max(n * bits_per_key, 64)
// rounded up to whole bytes. The filter is this / 8 plus one byte for k.
size_t LevelDbFilterBits(size_t num_keys, double bits_per_key);

// Bits/key a standard Bloom filter with optimal k needs for FP rate p:
// -ln(p) / ln(2)^2 (the sizing of RedisBloom's BF.RESERVE and of
// bits-and-blooms' EstimateParameters). REQUIRES: 0 < p < 1.
double BitsPerKeyForFpRate(double fp_rate);

// Probe count minimising the FP rate of a standard Bloom filter:
// round(bits_per_key * ln 2), at least 1.
int OptimalNumProbes(double bits_per_key);

// Expected FP rate of a standard Bloom filter with m bits, n keys, k probes
// and an ideal hash: (1 - e^(-k n / m))^k. 0 for n = 0.
double StandardBloomFpRate(double num_keys, double num_bits, int num_probes);

// Probability that an absent key's 32-bit hash equals one of n present
// keys' hashes (uniform hashes): 1 - (1 - 2^-32)^n, about n / 2^32 while
// that is small, and never above 1.
double Hash32CollisionRate(double num_keys);

// The FP rate of a filter whose Bloom part has FP rate bloom_fp and whose
// probes all derive from one 32-bit hash: a key that collides in the hash
// collides in every probe, so p_bloom + (1 - p_bloom) * Hash32CollisionRate.
double WithHash32Collisions(double bloom_fp, double num_keys);

// Bits of a LevelDB-format array its probes can reach: positions are a
// 32-bit hash modulo the bit count, so past 2^32 bits (512 MiB) the rest of
// the array is never set or tested.
inline double LevelDbReachableBits(double num_bits) {
  return num_bits < 4294967296.0 ? num_bits : 4294967296.0;
}

// FP rate of a LevelDB-format filter of num_bits bits, k probes, n keys: the
// standard Bloom rate over LevelDbReachableBits, WithHash32Collisions.
double LevelDbFilterFpRate(double num_keys, double num_bits, int num_probes);

// Expected FP rate of a LevelDB-format filter built for n keys at
// bits_per_key (LevelDbFilterFpRate with the builder's bits and k).
double LevelDbExpectedFpRate(size_t num_keys, double bits_per_key);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_BLOOM_MATH_H_
