#include "filter/plan/tables_against_plan.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "filter/allocation/encoding_model_memo.h"
#include "filter/allocation/filter_keys.h"
#include "filter/plan/cache_budget.h"
#include "filter/plan/table_choice.h"

namespace sstfilter {

std::shared_ptr<const TreeRuns> FreeTree(const FilterOptions& options, const TreeRuns& runs,
                                         const CacheSite* cache) {
  auto free = std::make_shared<TreeRuns>(runs);
  if (cache != nullptr) free->given_hot_width = SpreadFitOf(options, runs, *cache);
  for (RunCensus& run : free->l0_tables)
    run.fixed_keys = run.fixed_filter_bits = run.unfiltered_keys = 0;
  for (RunCensus& run : free->levels)
    run.fixed_keys = run.fixed_filter_bits = run.unfiltered_keys = 0;
  return free;
}

std::vector<TableAgainstPlan> TablesAgainstPlan(const FilterOptions& options,
                                                const std::shared_ptr<const TreeRuns>& runs,
                                                const CacheSite* cache, CachePlanMemo* plans,
                                                bool tree_has_levels,
                                                const std::vector<BuiltTable>& tables) {
  std::vector<TableAgainstPlan> against;
  if (runs == nullptr) return against;
  const int deepest = DeepestLevel(*runs);
  const std::shared_ptr<const TreeRuns> free = FreeTree(options, *runs, cache);
  for (const BuiltTable& table : tables) {
    if (table.level < 1 || table.entries <= 0) continue;
    TableSite site;
    site.tree_has_levels = tree_has_levels;
    site.level = table.level;
    site.bottommost = table.level >= deepest;
    const TableChoice choice = ChooseForSite(options, site, free, cache, plans);
    double planned = 0;
    if (!choice.no_filter) {
      const FilterSetting setting = FilterSettingOf(choice);
      if (setting == nullptr) continue;
      FilterKeys keys;
      keys.entries = std::max<size_t>(static_cast<size_t>(table.entries), 1);
      // As built_bits counts them: the bits spent, not the setting, by
      // filters of each partition's keys (a smaller filter spends more a key).
      const double bits = setting(keys);
      const double whole = MemoSpentBits(choice.encoding, keys.entries, bits);
      const double parts = cache == nullptr ? 1
                                            : cache->FilterBlocks(table.entries * whole / 8, 1,
                                                                  table.index_partitions);
      planned = MemoSpentBits(
          choice.encoding,
          std::max<size_t>(static_cast<size_t>(static_cast<double>(keys.entries) / parts), 1),
          bits);
    }
    against.push_back({table.number, table.level, table.entries, table.file_bytes,
                       table.filter_bits / table.entries, planned});
  }
  return against;
}

TreeRuns AsBuilt(TreeRuns runs, const std::vector<BuiltTable>& tables) {
  for (RunCensus& run : runs.levels)
    run.fixed_keys = run.fixed_filter_bits = run.unfiltered_keys = 0;
  for (const BuiltTable& table : tables) {
    if (table.level < 1 || table.level >= static_cast<int>(runs.levels.size())) continue;
    RunCensus& run = runs.levels[table.level];
    const auto keys = static_cast<uint64_t>(table.entries);
    run.fixed_keys += keys;
    run.fixed_filter_bits += static_cast<uint64_t>(table.filter_bits);
    if (table.filter_bits <= 0) run.unfiltered_keys += keys;
  }
  return runs;
}

}  // namespace sstfilter
