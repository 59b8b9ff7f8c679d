#include "bench/bench_filter.h"

namespace sstfilter::bench {

void BenchFilterReader::MayMatchBatch(absl::Span<const std::string_view> keys,
                                      bool* out) {
  for (size_t i = 0; i < keys.size(); ++i) out[i] = MayMatch(keys[i]);
}

}  // namespace sstfilter::bench
