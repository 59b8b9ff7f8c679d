#include "bench/filter_kinds.h"

#include "absl/status/status.h"
#include "absl/strings/str_split.h"
#include "bench/libleveldb_adapter.h"
#include "bench/rocksdb_builtin_adapter.h"
#include "bench/sstfilter_adapter.h"
#include "filter/bloom_math.h"
#include "filter/cache_local_bloom.h"
#include "filter/cache_local_math.h"
#include "filter/leveldb_bloom.h"

namespace sstfilter::bench {
namespace {

double LevelDbModel(size_t num_keys, size_t /*filter_bytes*/, double bits_per_key) {
  return LevelDbExpectedFpRate(num_keys, bits_per_key);
}

double CacheLocalModel(size_t num_keys, size_t /*filter_bytes*/, double bits_per_key) {
  return CacheLocalExpectedFpRate(num_keys, bits_per_key);
}

template <typename Builder, typename Reader>
FilterKind Sstfilter(std::string name, std::string description, ExpectedFpFn model) {
  return {std::move(name), std::move(description), /*native_batch=*/true,
          [model](double bpk) -> std::unique_ptr<BenchFilter> {
            return std::make_unique<SstfilterBenchFilter<Builder, Reader>>(bpk, model);
          }};
}

FilterKind RocksDb(std::string name, std::string description, RocksDbBuiltin impl) {
  return {std::move(name), std::move(description), /*native_batch=*/true,
          [impl](double bpk) { return NewRocksDbBenchFilter(impl, bpk); }};
}

}  // namespace

const std::vector<FilterKind>& AllFilterKinds() {
  static const auto* kinds = new std::vector<FilterKind>{
      Sstfilter<LevelDbBloomBuilder, LevelDbBloomReader>(
          "sst_leveldb", "sstfilter LevelDB-compatible", LevelDbModel),
      Sstfilter<CacheLocalBloomBuilder, CacheLocalBloomReader>(
          "sst_cachelocal", "sstfilter cache-local", CacheLocalModel),
      {"libleveldb", "LevelDB's own (libleveldb)", /*native_batch=*/false,
       NewLibLevelDbBenchFilter},
      RocksDb("rocksdb_fv5", "RocksDB FastLocalBloom (fv5)", RocksDbBuiltin::kFastLocalBloom),
      RocksDb("rocksdb_fv4", "RocksDB legacy Bloom (fv4)", RocksDbBuiltin::kLegacyBloom),
      RocksDb("ribbon", "RocksDB Ribbon", RocksDbBuiltin::kRibbon),
  };
  return *kinds;
}

absl::StatusOr<std::vector<FilterKind>> SelectFilterKinds(const std::string& names) {
  if (names.empty() || names == "all") return AllFilterKinds();
  std::vector<std::string> wanted = absl::StrSplit(names, ',', absl::SkipEmpty());
  for (const std::string& w : wanted) {
    bool known = false;
    for (const FilterKind& kind : AllFilterKinds()) known |= kind.name == w;
    if (!known) {
      std::string all;
      for (const FilterKind& kind : AllFilterKinds()) all += " " + kind.name;
      return absl::InvalidArgumentError("unknown filter kind '" + w + "' (known:" + all + ")");
    }
  }
  std::vector<FilterKind> selected;
  for (const FilterKind& kind : AllFilterKinds()) {
    for (const std::string& w : wanted) {
      if (kind.name == w) {
        selected.push_back(kind);
        break;
      }
    }
  }
  return selected;
}

}  // namespace sstfilter::bench
