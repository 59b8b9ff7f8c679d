// The filter implementations every benchmark and the FP report compare.
//
// Our encodings come from filter/encodings.h, one implementation each, named
// OurImplName(its format name); the peers are listed in filter_impls.cc. The
// first implementation is the reference that ratios are quoted against.
#ifndef SSTFILTER_BENCH_FILTER_IMPLS_H_
#define SSTFILTER_BENCH_FILTER_IMPLS_H_

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "bench/bench_filter.h"

namespace sstfilter::bench {

struct FilterImpl {
  std::string name;          // Short, no spaces or '/': used in bench names and CSVs.
  std::string description;   // One line for tables and plot legends.
  bool native_batch;         // MayMatchBatch is the implementation's own batched API.
  std::function<std::unique_ptr<BenchFilter>(double bits_per_key)> make;
};

// "sst_leveldb", "sst_cache_local": the name of one of our encodings here.
std::string OurImplName(std::string_view format_name);
// Ours, in EncodingId order: OurImplName of each encoding.
std::vector<std::string> OurImplNames();
// The peer our encodings' speed and accuracy are held against: RocksDB's
// FastLocalBloom (format_version 5).
inline constexpr char kFastLocalBloomImpl[] = "rocksdb_fv5";
// LevelDB's own Bloom filter (libleveldb's NewBloomFilterPolicy).
inline constexpr char kLibLevelDbImpl[] = "libleveldb";
// RocksDB's Standard128Ribbon (ribbonfilter:N): the memory-efficient peer of
// our compact encoding.
inline constexpr char kRibbonImpl[] = "ribbon";

// All implementations: ours in EncodingId order (the reference, LevelDB's, first),
// then the peers.
const std::vector<FilterImpl>& AllFilterImpls();

// The implementations named in a comma-separated list ("" or "all": every implementation), in
// AllFilterImpls order; InvalidArgument names an unknown implementation.
absl::StatusOr<std::vector<FilterImpl>> SelectFilterImpls(const std::string& names);

}  // namespace sstfilter::bench

#endif  // SSTFILTER_BENCH_FILTER_IMPLS_H_
