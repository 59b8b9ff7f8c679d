// The filter kinds every benchmark and the FP report compare.
//
// Our encodings come from filter/encodings.h, one kind each, named
// OurKindName(format name); the peers are listed in filter_kinds.cc. The
// first kind is the reference that ratios are quoted against.
#ifndef SSTFILTER_BENCH_FILTER_KINDS_H_
#define SSTFILTER_BENCH_FILTER_KINDS_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "bench/bench_filter.h"

namespace sstfilter::bench {

struct FilterKind {
  std::string name;          // Short, no spaces or '/': used in bench names and CSVs.
  std::string description;   // One line for tables and plot legends.
  bool native_batch;         // MayMatchBatch is the implementation's own batched API.
  std::function<std::unique_ptr<BenchFilter>(double bits_per_key)> make;
};

// "sst_leveldb", "sst_cache_local": the kind of one of our encodings.
std::string OurKindName(std::string_view format_name);

// All kinds: ours in FilterFormat order (the reference, LevelDB's, first),
// then the peers.
const std::vector<FilterKind>& AllFilterKinds();

// The kinds named in a comma-separated list ("" or "all": every kind), in
// AllFilterKinds order; InvalidArgument names an unknown kind.
absl::StatusOr<std::vector<FilterKind>> SelectFilterKinds(const std::string& names);

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_FILTER_KINDS_H_
