#include "bench/filter_kinds.h"

#include "absl/status/status.h"
#include "absl/strings/str_split.h"
#include "bench/libleveldb_adapter.h"
#include "bench/rocksdb_builtin_adapter.h"
#include "bench/sstfilter_adapter.h"
#include "filter/encodings.h"

namespace sstfilter::bench {
namespace {

FilterKind RocksDb(std::string name, std::string description, RocksDbBuiltin impl) {
  return {std::move(name), std::move(description), /*native_batch=*/true,
          [impl](double bpk) { return NewRocksDbBenchFilter(impl, bpk); }};
}

}  // namespace

std::string OurKindName(std::string_view format_name) {
  return "sst_" + std::string(format_name);
}

const std::vector<FilterKind>& AllFilterKinds() {
  static const auto* kinds = [] {
    auto* all = new std::vector<FilterKind>();
    ForEachEncoding([all](auto encoding) {
      using E = decltype(encoding);
      all->push_back({OurKindName(E::kInfo.name), std::string(E::kInfo.title), /*native_batch=*/true,
                      [](double bpk) -> std::unique_ptr<BenchFilter> {
                        return std::make_unique<SstfilterBenchFilter<E>>(bpk);
                      }});
    });
    all->push_back({"libleveldb", "LevelDB's own (libleveldb)", /*native_batch=*/false,
                    NewLibLevelDbBenchFilter});
    all->push_back(
        RocksDb("rocksdb_fv5", "RocksDB FastLocalBloom (fv5)", RocksDbBuiltin::kFastLocalBloom));
    all->push_back(
        RocksDb("rocksdb_fv4", "RocksDB legacy Bloom (fv4)", RocksDbBuiltin::kLegacyBloom));
    all->push_back(RocksDb("ribbon", "RocksDB Ribbon", RocksDbBuiltin::kRibbon));
    return all;
  }();
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
