#include "bench/fp_measure.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace sstfilter::bench {

size_t QueriesFor(double expected_fp_rate, size_t target_fps, size_t min_queries,
                  size_t max_queries) {
  const double wanted =
      expected_fp_rate > 0 ? std::ceil(target_fps / expected_fp_rate) : double(max_queries);
  return std::clamp(static_cast<size_t>(std::min(wanted, 1e15)), min_queries, max_queries);
}

FpMeasurement MeasureFp(const FilterImpl& impl, double bits_per_key,
                        absl::Span<const std::string_view> present,
                        absl::Span<const std::string_view> absent_pool,
                        size_t target_fps, size_t min_queries,
                        size_t max_present_checks) {
  FpMeasurement m;
  m.num_keys = present.size();
  std::unique_ptr<BenchFilter> filter = impl.make(bits_per_key);
  std::string bytes;
  filter->Build(present, &bytes);
  m.filter_bytes = bytes.size();
  m.expected_fp_rate = filter->ExpectedFpRate(present.size(), bytes.size());
  std::unique_ptr<BenchFilterReader> reader = filter->NewReader(bytes);

  m.queries = QueriesFor(m.expected_fp_rate, target_fps, min_queries, absent_pool.size());
  for (size_t i = 0; i < m.queries; ++i) m.false_positives += reader->MayMatch(absent_pool[i]);

  const size_t step = std::max<size_t>(1, present.size() / std::max<size_t>(1, max_present_checks));
  for (size_t i = 0; i < present.size(); i += step) {
    ++m.present_checked;
    m.false_negatives += !reader->MayMatch(present[i]);
  }
  return m;
}

}  // namespace sstfilter::bench
