#include "table/census/off_plan_tables.h"

#include <algorithm>
#include <memory>
#include <string>

#include "filter/plan/table_choice.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "table/census/census_registry.h"
#include "table/census/policy_registry.h"
#include "table/census/table_tree.h"

namespace sstfilter {

namespace {

// `runs` as a rewrite of the table sees it: its entries no longer fixed
// at the bits it was built with, but free, as a compaction's inputs are.
std::shared_ptr<const TreeRuns> WithTableFree(const TreeRuns& runs, int level, double entries,
                                              const TableRecord& record) {
  auto freed = std::make_shared<TreeRuns>(runs);
  if (level < static_cast<int>(freed->levels.size())) {
    RunCensus& run = freed->levels[level];
    const auto keys = static_cast<uint64_t>(entries);
    run.fixed_keys -= std::min(run.fixed_keys, keys);
    run.fixed_filter_bits -= std::min(run.fixed_filter_bits, record.filter_bits);
    if (record.filter_bits == 0) run.unfiltered_keys -= std::min(run.unfiltered_keys, keys);
  }
  return freed;
}

// The bits per key of the filters the policy would build for the table at
// `site` of `entries`, as a rewrite of it would (the table free in the
// tree, its entries not known before it is built): 0 for no filter;
// nullopt where the uniform setting applies.
std::optional<double> PlannedBits(const PolicySizing& sizing, const TableSite& site, double entries,
                                  std::shared_ptr<const TreeRuns> runs, CachePlanMemo* plans) {
  const TableChoice choice = ChooseForSite(sizing.options, site, std::move(runs),
                                           sizing.cache ? &*sizing.cache : nullptr, plans);
  if (choice.no_filter) return 0.0;
  const FilterSetting setting = FilterSettingOf(choice);
  if (setting == nullptr) return std::nullopt;
  FilterKeys keys;
  keys.entries = static_cast<size_t>(entries);
  return setting(keys);
}

}  // namespace

std::optional<PolicySizing> SizingOfDb(rocksdb::DB* db) {
  const rocksdb::Options options = db->GetOptions();
  if (options.table_factory == nullptr) return std::nullopt;
  const auto* table = options.table_factory->GetOptions<rocksdb::BlockBasedTableOptions>();
  if (table == nullptr || table->filter_policy == nullptr) return std::nullopt;
  // Held while its sizing is asked: the options' copy keeps it.
  const std::optional<RegisteredPolicy> registered = RegisteredPolicyOf(table->filter_policy.get());
  if (!registered.has_value() || registered->sizing == nullptr) return std::nullopt;
  return registered->sizing(*table);
}

std::optional<OffPlanView> OffPlanTables(rocksdb::DB* db,
                                         const std::vector<rocksdb::LiveFileMetaData>& files,
                                         const std::map<uint64_t, TableRecord>& records) {
  const std::string& cf = rocksdb::kDefaultColumnFamilyName;
  const rocksdb::Options options = db->GetOptions();
  const std::optional<PolicySizing> sizing = SizingOfDb(db);
  const void* key = CensusKeyOf(db);
  const std::shared_ptr<const TreeRuns> runs = TreeForTable(key, cf);
  if (!sizing.has_value() || runs == nullptr || !sizing->options.per_level.optimize_levels) {
    return std::nullopt;
  }
  const std::shared_ptr<CachePlanMemo> plans = LevelCensus::Instance().PlansOf(key, cf);
  OffPlanView view;
  const int deepest = DeepestLevel(*runs);
  for (const rocksdb::LiveFileMetaData& f : files) {
    const auto record = records.find(f.file_number);
    if (f.column_family_name != cf || f.level < 1 || f.being_compacted || record == records.end()) {
      continue;
    }
    const double entries =
        static_cast<double>(f.num_entries > 0 ? f.num_entries : record->second.entries);
    if (entries <= 0) continue;
    TableSite site;
    site.tree_has_levels = options.compaction_style == rocksdb::kCompactionStyleLevel ||
                           options.compaction_style == rocksdb::kCompactionStyleUniversal;
    site.level = f.level;
    site.bottommost = f.level >= deepest;
    const std::optional<double> planned =
        PlannedBits(*sizing, site, entries, WithTableFree(*runs, f.level, entries, record->second),
                    plans.get());
    if (!planned.has_value()) continue;
    view.tables.push_back({f.file_number, f.level, entries, static_cast<double>(f.size),
                           static_cast<double>(record->second.filter_bits) / entries, *planned});
  }
  if (sizing->cache.has_value() && sizing->options.per_level.cache_aware) {
    view.gains = RebuildGains(sizing->options, *runs, *sizing->cache, view.tables);
  }
  return view;
}

}  // namespace sstfilter
