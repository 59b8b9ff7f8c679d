#include "table/census/off_plan_tables.h"

#include <algorithm>
#include <memory>
#include <string>

#include "filter/allocation/tree_traffic.h"
#include "filter/plan/tables_against_plan.h"
#include "rocksdb/options.h"
#include "rocksdb/table.h"
#include "table/census/census_registry.h"
#include "table/census/policy_registry.h"
#include "table/census/table_tree.h"

namespace sstfilter {

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

namespace {

// Access-aware, and the tree's traffic read but too little yet: the tables
// would be planned as by optimize_levels alone, then again once it is
// known (nothing learned yet is worth a rewrite).
bool TrafficUnknown(const FilterOptions& options, const TreeRuns& runs) {
  return options.per_level.access_aware && runs.traffic != nullptr && !runs.traffic->known();
}

// The cache model's gains, not the false positives'.
bool CacheModelled(const PolicySizing& sizing) {
  return sizing.cache.has_value() && sizing.options.per_level.cache_aware;
}

// How RocksDB builds the column family's filters beyond the policy's
// choice: optimize_filters_for_hits writes a bottommost table without one.
TableHost HostOf(const rocksdb::Options& options) {
  TableHost host;
  host.tree_has_levels = options.compaction_style == rocksdb::kCompactionStyleLevel ||
                         options.compaction_style == rocksdb::kCompactionStyleUniversal;
  host.deepest_unfiltered = options.optimize_filters_for_hits;
  host.l0_stays = options.disable_auto_compactions;
  host.bytewise = options.comparator == nullptr ||
                  std::string(options.comparator->Name()) == "leveldb.BytewiseComparator";
  return host;
}

}  // namespace

bool WeighedByFalsePositives(const PolicySizing& sizing) { return !CacheModelled(sizing); }

std::optional<OffPlanView> OffPlanTables(rocksdb::DB* db, const PolicySizing& sizing,
                                         const std::vector<rocksdb::LiveFileMetaData>& files,
                                         const std::map<uint64_t, TableRecord>& records,
                                         const std::map<int, bool>& under_way) {
  const std::string& cf = rocksdb::kDefaultColumnFamilyName;
  const void* key = CensusKeyOf(db);
  const std::shared_ptr<const TreeRuns> runs = TreeForTable(key, cf);
  if (runs == nullptr || !sizing.options.per_level.optimize_levels) return std::nullopt;
  const rocksdb::Options options = db->GetOptions();
  const std::shared_ptr<CachePlanMemo> plans = LevelCensus::Instance().PlansOf(key, cf);
  std::vector<BuiltTable> built;
  for (const rocksdb::LiveFileMetaData& f : files) {
    const auto record = records.find(f.file_number);
    if (f.column_family_name != cf || f.being_compacted || record == records.end()) continue;
    // Its bits a key counted per filter entry, as its builder sized them: a
    // prefix extractor's prefixes beside whole keys are not off the plan.
    built.push_back(
        {f.file_number, f.level, static_cast<double>(record->second.KeysFiltered()),
         static_cast<double>(f.size), static_cast<double>(record->second.filter_bits),
         static_cast<double>(record->second.index_blocks), record->second.user_key_bytes,
         static_cast<double>(record->second.index_top_bytes), true, f.smallestkey, f.largestkey});
  }
  OffPlanView view;
  view.tables = TablesAgainstPlan(sizing.options, runs, sizing.cache ? &*sizing.cache : nullptr,
                                  plans.get(), HostOf(options), built);
  if (plans != nullptr) {
    if (const std::optional<CachePlan> last = plans->Last()) view.hot_width = last->hot_width;
  }
  if (CacheModelled(sizing)) {
    view.gains =
        RebuildGains(sizing.options, AsBuilt(*runs, built), *sizing.cache, view.tables, under_way);
  } else if (!TrafficUnknown(sizing.options, *runs)) {
    TreeBits bits;
    view.gains =
        FpRebuildGains(sizing.options, AsBuilt(*runs, built), view.tables, under_way, &bits);
    view.bits = bits;
  }
  return view;
}

}  // namespace sstfilter
