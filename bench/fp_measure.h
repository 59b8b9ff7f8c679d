// Measures the false-positive rate of one filter implementation on one key set.
#ifndef SSTFILTER_BENCH_FP_MEASURE_H_
#define SSTFILTER_BENCH_FP_MEASURE_H_

#include <cstddef>
#include <string_view>

#include "absl/types/span.h"
#include "bench/filter_impls.h"

namespace sstfilter::bench {

struct FpMeasurement {
  size_t num_keys = 0;
  size_t filter_bytes = 0;
  size_t queries = 0;          // Absent keys asked.
  size_t false_positives = 0;
  size_t present_checked = 0;  // Present keys asked (a sample when n is large).
  size_t false_negatives = 0;  // Must be 0 for every impl.
  double expected_fp_rate = 0; // The impl's own model for this filter.

  double fp_rate() const { return queries ? double(false_positives) / queries : 0; }
  // The memory the filter takes, whatever bits/key it was configured with.
  double spent_bits_per_key() const { return num_keys ? 8.0 * filter_bytes / num_keys : 0; }
};

// How many absent keys to ask: enough for about target_fps false positives
// at the expected rate (relative standard error ~ 1/sqrt(target_fps)),
// clamped to [min_queries, max_queries].
size_t QueriesFor(double expected_fp_rate, size_t target_fps, size_t min_queries,
                  size_t max_queries);

// Builds a filter of `present` with `implementation` at bits_per_key, then asks
// absent_pool's first QueriesFor(expected) keys and up to max_present_checks
// present keys (evenly spread). REQUIRES: absent keys are not in present.
FpMeasurement MeasureFp(const FilterImpl& impl, double bits_per_key,
                        absl::Span<const std::string_view> present,
                        absl::Span<const std::string_view> absent_pool,
                        size_t target_fps, size_t min_queries,
                        size_t max_present_checks);

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_FP_MEASURE_H_
