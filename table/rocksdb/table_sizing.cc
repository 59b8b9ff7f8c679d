#include "table/rocksdb/table_sizing.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/strip.h"
#include "rocksdb/advanced_options.h"
#include "rocksdb/cache.h"
// From RocksDB 8.x the Cache class itself is declared here.
#if __has_include("rocksdb/advanced_cache.h")
#include "rocksdb/advanced_cache.h"
#endif
#include "rocksdb/table.h"
#include "rocksdb/types.h"
#include "table/census/census_registry.h"
#include "table/census/table_tree.h"

namespace sstfilter {

namespace {

TableSite SiteOf(const rocksdb::FilterBuildingContext& context) {
  TableSite site;
  site.tree_has_levels = context.compaction_style == rocksdb::kCompactionStyleLevel ||
                         context.compaction_style == rocksdb::kCompactionStyleUniversal;
  site.flush = context.reason == rocksdb::TableFileCreationReason::kFlush ||
               context.reason == rocksdb::TableFileCreationReason::kRecovery;
  site.level = context.level_at_creation;
  site.bottommost = context.is_bottommost;
  return site;
}

// Whether filter partitions are cut with index partitions: always before
// RocksDB had decouple_partitioned_filters, and where it is false.
template <typename Table>
auto Coupled(const Table& table, int) -> decltype(table.decouple_partitioned_filters, bool()) {
  return !table.decouple_partitioned_filters;
}
template <typename Table>
bool Coupled(const Table&, long) {
  return true;
}

// The high-priority pool's share of `cache`, as its printable options say
// (an LRU cache's "high_pri_pool_ratio: 0.500"); 0 where they do not (other
// caches, as HyperClockCache, RocksDB 10's default, taken as one list).
double HighPriRatio(const rocksdb::Cache& cache) {
  const std::string printed = cache.GetPrintableOptions();
  constexpr std::string_view kKey = "high_pri_pool_ratio:";
  const size_t at = printed.find(kKey);
  double ratio = 0;
  if (at == std::string::npos ||
      !absl::SimpleAtod(absl::StripAsciiWhitespace(absl::string_view(printed).substr(
                            at + kKey.size(), printed.find('\n', at) - at - kKey.size())),
                        &ratio) ||
      !(ratio >= 0 && ratio <= 1)) {
    return 0;
  }
  return ratio;
}

}  // namespace

std::optional<CacheSite> CacheSiteOf(const FilterOptions& options,
                                     const rocksdb::BlockBasedTableOptions& table) {
  // Filter partitions go through the block cache whatever
  // cache_index_and_filter_blocks says (it decides only where a full filter
  // or the partitions' top level lives).
  if (table.no_block_cache || table.block_cache == nullptr ||
      !(table.cache_index_and_filter_blocks || table.partition_filters)) {
    return std::nullopt;
  }
  CacheSite cache;
  cache.capacity_bytes = static_cast<double>(table.block_cache->GetCapacity()) *
                         options.per_level.cache_share.value_or(1.0);
  cache.partitioned = table.partition_filters;
  cache.partition_bytes = static_cast<double>(std::max<uint64_t>(table.metadata_block_size, 1));
  cache.partitions_coupled = Coupled(table, 0);
  cache.partition_slack_percent = std::min(table.block_size_deviation, 100);
  cache.high_pri_ratio =
      table.cache_index_and_filter_blocks_with_high_priority ? HighPriRatio(*table.block_cache) : 0;
  return cache;
}

std::string CacheAwareFallback(const FilterOptions& options,
                               const rocksdb::BlockBasedTableOptions* table) {
  if (!options.per_level.cache_aware) return "";
  const char* why = table == nullptr                        ? "the table format is not block-based"
                    : table->no_block_cache                 ? "no_block_cache=true"
                    : table->block_cache == nullptr         ? "no block cache"
                    : !table->cache_index_and_filter_blocks && !table->partition_filters
                        ? "cache_index_and_filter_blocks=false and partition_filters=false (the "
                          "table readers hold the filters)"
                        : nullptr;
  if (why == nullptr) return "";
  return absl::StrFormat(
      "%s: %s: the filters are not in a block cache (%s); sizing them as %s alone, at "
      "bits_per_key=%s%s",
      kBloomPolicyName, kCacheAwareName, why, kOptimizeLevelsName,
      FormatBitsPerKey(options.bits_per_key),
      options.per_level.budget_mb ? absl::StrCat(" within ", kBudgetName, "=",
                                                 FormatBitsPerKey(*options.per_level.budget_mb))
                                  : "");
}

TableChoice ChooseForTable(const FilterOptions& options,
                           const rocksdb::FilterBuildingContext& context) {
  const TableSite site = SiteOf(context);
  std::shared_ptr<const TreeRuns> runs;
  if (SizedByTree(options, site)) {
    runs = TreeForTable(context.info_log, context.column_family_name);
  }
  std::optional<CacheSite> cache;
  if (options.per_level.cache_aware) cache = CacheSiteOf(options, context.table_options);
  std::shared_ptr<CachePlanMemo> plans;
  if (cache && runs != nullptr) {
    plans = LevelCensus::Instance().PlansOf(context.info_log, context.column_family_name);
  }
  return ChooseForSite(options, site, std::move(runs), cache ? &*cache : nullptr, plans.get());
}

}  // namespace sstfilter
