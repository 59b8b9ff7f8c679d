#include "bench/filter_impls.h"

#include "absl/status/status.h"
#include "absl/strings/str_split.h"
#include "bench/libleveldb_adapter.h"
#include "bench/rocksdb_builtin_adapter.h"
#include "bench/sstfilter_adapter.h"
#include "filter/encodings.h"

namespace sstfilter::bench {
namespace {

FilterImpl RocksDb(std::string name, std::string description, RocksDbBuiltin impl) {
  return {std::move(name), std::move(description), /*native_batch=*/true,
          [impl](double bpk) { return NewRocksDbBenchFilter(impl, bpk); }};
}

}  // namespace

std::string OurImplName(std::string_view format_name) {
  return "sst_" + std::string(format_name);
}

std::vector<std::string> OurImplNames() {
  std::vector<std::string> names;
  ForEachEncoding([&names](auto encoding) {
    names.push_back(OurImplName(decltype(encoding)::kInfo.name));
  });
  return names;
}

const std::vector<FilterImpl>& AllFilterImpls() {
  static const auto* impls = [] {
    auto* all = new std::vector<FilterImpl>();
    ForEachEncoding([all](auto encoding) {
      using E = decltype(encoding);
      all->push_back({OurImplName(E::kInfo.name), std::string(E::kInfo.title), /*native_batch=*/true,
                      [](double bpk) -> std::unique_ptr<BenchFilter> {
                        return std::make_unique<SstfilterBenchFilter<E>>(bpk);
                      }});
    });
    all->push_back({kLibLevelDbImpl, "LevelDB's own (libleveldb)", /*native_batch=*/false,
                    NewLibLevelDbBenchFilter});
    all->push_back(
        RocksDb(kFastLocalBloomImpl, "RocksDB FastLocalBloom (bloomfilter, fv5)", RocksDbBuiltin::kFastLocalBloom));
    all->push_back(
        RocksDb("rocksdb_fv4", "RocksDB legacy Bloom (fv4)", RocksDbBuiltin::kLegacyBloom));
    all->push_back(RocksDb(kRibbonImpl, "RocksDB Standard128Ribbon (ribbonfilter)", RocksDbBuiltin::kRibbon));
    return all;
  }();
  return *impls;
}

absl::StatusOr<std::vector<FilterImpl>> SelectFilterImpls(const std::string& names) {
  if (names.empty() || names == "all") return AllFilterImpls();
  std::vector<std::string> wanted = absl::StrSplit(names, ',', absl::SkipEmpty());
  for (const std::string& w : wanted) {
    bool known = false;
    for (const FilterImpl& impl : AllFilterImpls()) known |= impl.name == w;
    if (!known) {
      std::string all;
      for (const FilterImpl& impl : AllFilterImpls()) all += " " + impl.name;
      return absl::InvalidArgumentError("unknown filter '" + w + "' (known:" + all + ")");
    }
  }
  std::vector<FilterImpl> selected;
  for (const FilterImpl& impl : AllFilterImpls()) {
    for (const std::string& w : wanted) {
      if (impl.name == w) {
        selected.push_back(impl);
        break;
      }
    }
  }
  return selected;
}

}  // namespace sstfilter::bench
