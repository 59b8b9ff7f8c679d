// One filter implementation as the benchmarks and the FP report see it.
//
// Every filter implementation (our encodings, libleveldb, RocksDB's built-ins) sits
// behind these two small interfaces, so one benchmark body or one FP
// measurement runs unchanged over all of them, on the same keys. The virtual
// call per query costs every implementation the same.
#ifndef SSTFILTER_BENCH_BENCH_FILTER_H_
#define SSTFILTER_BENCH_BENCH_FILTER_H_

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "absl/types/span.h"

namespace sstfilter::bench {

// Queries one built filter. The filter bytes must outlive the reader.
class BenchFilterReader {
 public:
  virtual ~BenchFilterReader() = default;

  virtual bool MayMatch(std::string_view key) = 0;

  // Answers as MayMatch for every key; out holds keys.size() entries.
  // REQUIRES: keys.size() <= 32 (a MultiGet batch).
  // The default asks MayMatch key by key; implementations with a batched API override.
  virtual void MayMatchBatch(absl::Span<const std::string_view> keys, bool* out);
};

// Builds filters of one implementation at one bits/key setting.
class BenchFilter {
 public:
  virtual ~BenchFilter() = default;

  // Replaces *out with the filter of keys (distinct keys).
  virtual void Build(absl::Span<const std::string_view> keys, std::string* out) = 0;

  virtual std::unique_ptr<BenchFilterReader> NewReader(std::string_view filter) const = 0;

  // The FP rate the implementation's own model predicts for a filter of
  // filter_bytes bytes holding num_keys keys.
  virtual double ExpectedFpRate(size_t num_keys, size_t filter_bytes) const = 0;
};

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_BENCH_FILTER_H_
