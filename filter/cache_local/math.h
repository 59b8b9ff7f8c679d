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
#include <optional>

namespace sstfilter {

// Lines of a filter for n keys: ceil(n * bits_per_key / 512), at least 1 for
// n > 0, 0 for n = 0, and at most 2^32 - 1 (256 GiB).
uint64_t CacheLocalNumLines(size_t num_keys, double bits_per_key);

// Small filters have narrow lines. Whole 64-byte lines would cost a filter
// of 20 keys at 10 bits/key 64 bytes for its 200 bits (2.6 times LevelDB's
// filter; LevelDB's per-block filters hold 4-100 keys). So a filter of up
// to kMaxNarrowLines lines keeps the line count but cuts every line to the
// whole bytes the keys need, ceil(n * bits_per_key / (8 * lines)): about
// n * bits_per_key bits, like LevelDB's, with the probes of a key still in
// one line of at most 64 bytes. Above kMaxNarrowLines, lines are 64 bytes
// (a full line wastes under 1/8 there), so large filters keep the layout
// and the SIMD kernels. With 8, a filter holds at most 4096 bits: RocksDB's
// 4 KB filter partitions and its full filters above ~410 keys at 10
// bits/key are 64-byte lines.
inline constexpr uint64_t kMaxNarrowLines = 8;

// The bit array of a cache-local filter: num_lines lines of line_bytes
// bytes (1..64); each key's probes land in one line.
struct CacheLocalShape {
  uint64_t num_lines = 0;
  uint32_t line_bytes = 64;
  uint64_t array_bytes() const { return num_lines * line_bytes; }
  bool operator==(const CacheLocalShape& o) const {
    return num_lines == o.num_lines && line_bytes == o.line_bytes;
  }
};

// The shape the builder lays n keys out in: CacheLocalNumLines lines, narrow
// when there are at most kMaxNarrowLines of them (see above).
CacheLocalShape CacheLocalFilterShape(size_t num_keys, double bits_per_key);

// The shape of a bit array of array_bytes bytes, or nullopt if no builder
// writes one that long: a multiple of 64 is 64-byte lines; otherwise lines =
// ceil(array_bytes / 64) <= kMaxNarrowLines must divide it. Every shape
// CacheLocalFilterShape gives is read back (narrow lines hold more than
// 64 * (lines - 1) / lines bytes, so the line count is recovered).
std::optional<CacheLocalShape> CacheLocalShapeOfArray(uint64_t array_bytes);

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

// Expected FP rate of a filter already built: n keys in lines of `shape`
// with num_probes (what the SST inspector reads from a filter's trailer).
// Up to kMaxNarrowLines lines the line loads are binomial (n keys, each line
// 1/lines likely) and the sum is exact; a single line holds exactly n keys.
// Above, loads are Poisson as in BlockedBloomFpRate. Per line the rate is
// (1 - clear fraction)^k, which takes the probes' hits as independent: for
// lines of a few dozen bits it runs low, and closer as keys grow
// (docs/encodings.md#small-filters).
double CacheLocalFilterFpRate(size_t num_keys, CacheLocalShape shape, int num_probes);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_CACHE_LOCAL_MATH_H_
