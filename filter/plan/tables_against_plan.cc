#include "filter/plan/tables_against_plan.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "filter/allocation/encoding_model_memo.h"
#include "filter/allocation/filter_keys.h"
#include "filter/plan/cache_budget.h"
#include "filter/plan/table_choice.h"

namespace sstfilter {

namespace {

// `runs` with every run free: today's plan for each level, owing nothing
// to tables built under another (the rebuilds bring those to it too). Its
// spread is the one fit to the tree as built: the misses the DB counted
// are of the filters its tables hold, not of the free tree's.
std::shared_ptr<const TreeRuns> AllFree(const FilterOptions& options, const TreeRuns& runs,
                                        const CacheSite* cache) {
  auto free = std::make_shared<TreeRuns>(runs);
  if (cache != nullptr) free->given_hot_width = SpreadFitOf(options, runs, *cache);
  for (RunCensus& run : free->l0_tables)
    run.fixed_keys = run.fixed_filter_bits = run.unfiltered_keys = 0;
  for (RunCensus& run : free->levels)
    run.fixed_keys = run.fixed_filter_bits = run.unfiltered_keys = 0;
  return free;
}

}  // namespace

std::vector<TableAgainstPlan> TablesAgainstPlan(const FilterOptions& options,
                                                const std::shared_ptr<const TreeRuns>& runs,
                                                const CacheSite* cache, CachePlanMemo* plans,
                                                bool tree_has_levels,
                                                const std::vector<BuiltTable>& tables) {
  std::vector<TableAgainstPlan> against;
  if (runs == nullptr) return against;
  const int deepest = DeepestLevel(*runs);
  const std::shared_ptr<const TreeRuns> free = AllFree(options, *runs, cache);
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
      // As built_bits counts them: the bits spent, not the setting.
      planned = MemoSpentBits(choice.encoding, keys.entries, setting(keys));
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
