// The filter soak: many filters of random keys, built and queried through
// every encoding, every SIMD level the CPU runs and both query paths
// (single key and batched), counting false negatives (there must be none)
// and false positives (against the encoding's FP model).
#ifndef SSTFILTER_BENCH_SOAK_H_
#define SSTFILTER_BENCH_SOAK_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "filter/simd_level.h"
#include "filter/encoding_id.h"

namespace sstfilter::bench {

struct SoakConfig {
  EncodingId encoding = kDefaultEncoding;
  // The kernel level forced on builder and reader; nullopt for an encoding
  // with no SIMD levels (the LevelDB format picks kernels by k alone,
  // leveldb/kernels.h).
  std::optional<SimdLevel> simd;
  bool batched = false;  // MayMatchBatch instead of MayMatch.
  size_t num_keys = 0;   // Keys per filter.
  uint64_t checks = 0;   // Present keys to check, over as many filters as it takes.
  uint64_t seed = 0;

  std::string SimdName() const;  // "avx2", or "per-k" when simd is nullopt.
  std::string PathName() const { return batched ? "batch" : "single"; }
};

inline constexpr double kFpToleratedFactor = 4.0;

struct SoakResult {
  uint64_t filters = 0;
  uint64_t checks = 0;
  uint64_t false_negatives = 0;
  uint64_t absent_queries = 0;
  uint64_t false_positives = 0;
  double fp_model = 0;           // Expected FP rate of each filter.
  double check_seconds = 0;      // Time in the present-key queries alone.
  double total_seconds = 0;      // Building, key generation and all queries.

  double FpRate() const;
  // Whether the FP count exceeds kFpToleratedFactor x the model by more
  // than 6 sigma (+3 for small means). The factor tolerates the LevelDB
  // encoding, whose FP rate on big filters runs well above its model (the
  // format's design, docs/encodings.md#leveldb-encoding; libleveldb's
  // filters alike), while a filter that lost its bits or answers "may
  // match" lands far above.
  bool FpFarAboveModel() const;
};

// Every (format, level, path, size) configuration, sizes min_keys, 10x, ...
// up to max_keys, with total_checks spread evenly. InvalidArgument when
// the figures leave a configuration without checks.
absl::StatusOr<std::vector<SoakConfig>> PlanSoak(const std::vector<EncodingId>& encodings,
                                                 size_t min_keys, size_t max_keys,
                                                 uint64_t total_checks, uint64_t seed);

// Runs one configuration. absent_ratio: absent keys queried per present
// check. Error only when a built filter is not probed (it would answer
// "may match" for everything and hide false negatives).
absl::StatusOr<SoakResult> RunSoakConfig(const SoakConfig& config, double bits_per_key,
                                         double absent_ratio);

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_SOAK_H_
