// Arithmetic of the compact encoding: which fingerprint width a bits/key
// asks for, the shape of a 4-wise binary fuse filter for n keys, its size
// and its FP rate.
//
// Accuracy. bits_per_key keeps its meaning: the FP rate of a Bloom filter
// with that many bits per key. Precisely, the compact filter aims at the FP
// rate of the cache-local Bloom encoding at bits_per_key for large n
// (BlockedBloomFpRate(512 / bits_per_key, CacheLocalNumProbes(bits_per_key)),
// cache_local/math.h): 0.9576% at 10 bits/key, the same model RocksDB's
// FastLocalBloom quotes (0.955%).
//
// Fractional fingerprints. A fuse filter answers "may match" for an absent
// key with probability 2^-w, w its fingerprint bits. A target t between
// 2^-r and 2^-(r-1) is met exactly by giving the first cells of the array
// r - 1 bits and the others r: keys whose window starts in the narrow cells
// compare r - 1 bits (FP 2^-(r-1)), the others r bits (2^-r). A fraction
// q = t * 2^r - 1 of window starts narrow gives FP q 2^-(r-1) + (1-q) 2^-r = t
// and saves q bits per window start: at 10 bits/key r = 7, q = 0.2257,
// ~7.30 bits/key at large n where whole 7-bit cells would spend 7.53.
//
// Shape (Graf & Lemire, "Binary Fuse Filters", 2022, arity 4): cells come in
// segments of L = 2^floor(ln n / ln 2.91 - 0.5) cells (at most 2^18); a key
// picks a window start among the first S * L cells and one cell in each of 4
// consecutive segments. The array has (S + 3) * L cells for a capacity of
// n * max(1.075, 0.77 + 0.305 ln(600000) / ln n) cells, rounded up to
// segments.
#ifndef SSTFILTER_FILTER_COMPACT_MATH_H_
#define SSTFILTER_FILTER_COMPACT_MATH_H_

#include <cstddef>
#include <cstdint>
#include <optional>

namespace sstfilter {

// Fingerprints are at most 32 bits (FP 2.3e-10): past ~45 bits/key the
// compact filter is less accurate than the Bloom filter it aims at.
inline constexpr int kCompactMaxFingerprintBits = 32;
// Each key touches one cell in each of this many consecutive segments.
inline constexpr int kCompactArity = 4;
inline constexpr int kCompactMaxLogSegmentLength = 18;

// The FP rate bits_per_key aims at (see above). REQUIRES: bits_per_key > 0.
double CompactTargetFpRate(double bits_per_key);

// Fingerprint width r and fraction q of narrow (r - 1 bit) window starts
// that meet target t: r = ceil(-log2 t) clamped to [1, 32], q = t 2^r - 1
// clamped to [0, 1).
struct CompactFingerprint {
  int bits = 1;
  double narrow_fraction = 0;
};
CompactFingerprint CompactFingerprintFor(double bits_per_key);

// A fuse filter's cells: (segment_count + 3) segments of 2^log_segment_length
// cells; cell i holds bits - 1 bits when i < narrow_cells, bits otherwise.
struct FuseShape {
  uint32_t segment_count = 0;
  int log_segment_length = 0;
  uint32_t narrow_cells = 0;
  int fingerprint_bits = 1;

  uint32_t segment_length() const { return uint32_t{1} << log_segment_length; }
  // Cells a window may start in: segment_count * segment_length.
  uint64_t window_starts() const { return uint64_t{segment_count} << log_segment_length; }
  uint64_t num_cells() const {
    return (uint64_t{segment_count} + kCompactArity - 1) << log_segment_length;
  }
  uint64_t array_bits() const { return num_cells() * fingerprint_bits - narrow_cells; }
  uint64_t array_bytes() const { return (array_bits() + 7) / 8; }
  // FP rate of an absent key: its window start is narrow with probability
  // narrow_cells / window_starts.
  double FpRate() const;
};

// Fuse filters hold at most this many keys (cells are counted in 32 bits).
inline constexpr size_t kCompactMaxFuseKeys = size_t{1} << 30;
// Below this a fuse filter is never smaller than a Bloom filter.
inline constexpr size_t kCompactMinFuseKeys = 64;

// The shape for n keys (kCompactMinFuseKeys <= n <= kCompactMaxFuseKeys).
// Its narrow cells fill the last byte of the array: no other widths on
// these cells spend the same bytes for a lower FP rate.
FuseShape CompactFuseShape(size_t num_keys, double bits_per_key);

// Other fingerprint widths on the same cells (segments unchanged, so a
// filter peeled for `cells` can be packed at them): the r and narrow_cells
// that spend the most array bits within max_array_bits, nullopt when none
// fit (r in [1, kCompactMaxFingerprintBits], narrow_cells <= window_starts,
// so r-bit cells span bits from r C - W to r C, C cells, W window starts).
// More bits never raise the FP rate: it is what
// optimize_filters_for_memory sizes a compact filter with.
std::optional<FuseShape> FitFingerprints(const FuseShape& cells, uint64_t max_array_bits);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_COMPACT_MATH_H_
