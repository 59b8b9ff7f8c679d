#include "filter/plan/tables_against_plan.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "filter/accuracy.h"
#include "filter/allocation/encoding_model_memo.h"
#include "filter/allocation/filter_keys.h"
#include "filter/allocation/table_fp_rule.h"
#include "filter/allocation/table_fp_target.h"
#include "filter/allocation/tree_traffic.h"
#include "filter/plan/cache_budget.h"
#include "filter/plan/partition_cut.h"
#include "filter/plan/table_choice.h"

namespace sstfilter {

namespace {

// The bits a key `table` spends built as `choice` says, as built_bits
// counts them: the bits spent, not the setting, by the filters RocksDB
// cuts it into, each at the setting for its own keys (a smaller filter
// spends more a key), and their partition index.
double PlannedSpend(const FilterOptions& options, const TableChoice& choice,
                    const FilterSetting& setting, const BuiltTable& table, const CacheSite* cache) {
  const auto bytes = [&](double entries) {
    FilterKeys keys;
    keys.entries = std::max<size_t>(static_cast<size_t>(entries), 1);
    return static_cast<double>(MemoFilterSize(choice.encoding, keys.entries, setting(keys)));
  };
  const TableKeys keys{table.entries, table.user_key_bytes, table.index_partitions,
                       table.index_top_bytes};
  const FilterCut cut =
      CutOf(cache, choice.encoding, Accuracy(options).NominalBitsPerKey(choice.encoding), keys,
            bytes(table.entries));
  const double filters = cut.full * bytes(cut.keys) + (cut.tail > 0 ? bytes(cut.tail) : 0);
  return 8 * (filters + PartitionIndexBytes(cache, keys, cut.filters())) /
         std::max(table.entries, 1.0);
}

// Where `choice` sizes filters by their key range and `table`'s is known:
// its rule becomes the FP of one filter of the table's range at the share
// its own level's tables saw of it (as the loop's rewrite builds it,
// TreeRuns::rewrite_level), each of its filters at it, and that share is
// returned; else 0.
double PlanByRange(const BuiltTable& table, TableChoice* choice) {
  if (!choice->fp_rule.has_value() || !choice->fp_rule->by_range.has_value() || !table.has_range) {
    return 0;
  }
  // Rewritten in place, the table keeps its keys: its own level's share.
  choice->fp_rule->by_range->own_level = table.level;
  FilterKeys keys;
  keys.entries = static_cast<size_t>(std::max(table.entries, 1.0));
  keys.has_range = true;
  keys.smallest = table.smallest, keys.largest = table.largest;
  const double share = RangeReach(*choice->fp_rule, keys);
  if (share <= 0) return 0;
  TableFpRule whole;
  whole.fp = FilterFp(*choice->fp_rule, keys);
  choice->fp_rule = whole;
  return share;
}

// Whether `table`, planned by its range's share (PlanByRange), has lived
// through too little of the counted Gets for that share to be its own
// (kMinLivedShare): it keeps the bits its range's Gets gave it when built.
bool TooYoungToPlan(const TreeRuns& runs, const BuiltTable& table) {
  return runs.traffic != nullptr &&
         runs.traffic->LivedAt(table.level, table.smallest, table.largest) < kMinLivedShare;
}

// Whether `other` may hold a key of `table`'s range: it overlaps it, or
// its range is not known (compared bytewise).
bool MayOverlap(const BuiltTable& table, const BuiltTable& other) {
  return !other.has_range || (other.smallest <= table.largest && table.smallest <= other.largest);
}

// Whether the host takes `table` for a bottommost one, as RocksDB's
// compaction does: no table of `tables` below its level holds a key of its
// range (the ranges compared bytewise: REQUIRES the host's comparator to
// be). A table whose range is not known is not.
bool NothingBelow(const BuiltTable& table, const std::vector<BuiltTable>& tables) {
  if (!table.has_range) return false;
  return std::none_of(tables.begin(), tables.end(), [&](const BuiltTable& other) {
    return other.level > table.level && MayOverlap(table, other);
  });
}

// The Gets `table`, at L0, drew as its own run, where it is planned for a
// rewrite in place: under access_aware with its tree's traffic known and
// no block cache modelled (the cache model weighs L0 as built), while
// RocksDB's compactions run (where L0 stays the plan holds its tables as
// built and the levels repay them: LevelTargets::l0_stays), once it has
// lived through kMinLivedShare of the counted Gets (a table a compaction
// will soon take down is not rewritten for Gets it barely saw). Null
// otherwise.
const TableTraffic* L0TableToPlan(const FilterOptions& options, const TreeRuns& runs,
                                  const CacheSite* cache, const TableHost& host,
                                  const BuiltTable& table) {
  if (table.level != 0 || cache != nullptr || host.l0_stays || runs.targets.l0_stays) {
    return nullptr;
  }
  const TreeTraffic* traffic = TrafficFor(options, runs);
  const TableTraffic* own = traffic != nullptr ? traffic->L0Table(table.number) : nullptr;
  return own != nullptr && traffic->Lived(*own) >= kMinLivedShare ? own : nullptr;
}

// Whether RocksDB writes `table`, an L0 table rewritten in place, as a
// bottommost one (Compaction::IsBottommostLevel with an L0 output): no
// older L0 table and no table below L0 holds a key of its range. A table
// whose range is not known is not. Older is taken as a lower file number:
// RocksDB orders L0 by sequence number (7.x) or epoch number (8.x+), which
// a rewrite in place keeps under a new number, so in an L0-only tree a
// table rewritten by the loop counts as newer than it is.
bool L0Bottommost(const BuiltTable& table, const std::vector<BuiltTable>& tables) {
  if (!table.has_range) return false;
  return std::none_of(tables.begin(), tables.end(), [&](const BuiltTable& other) {
    const bool under = other.level > 0 || (other.level == 0 && other.number < table.number);
    return under && MayOverlap(table, other);
  });
}

}  // namespace

std::shared_ptr<TreeRuns> FreeTree(const FilterOptions& options, const TreeRuns& runs,
                                   const CacheSite* cache) {
  auto free = std::make_shared<TreeRuns>(runs);
  if (cache != nullptr && options.per_level.cache_aware) {
    free->given_hot_width = SpreadFitOf(options, runs, *cache);
  }
  if (!runs.targets.l0_stays) {
    for (RunCensus& run : free->l0_tables)
      run.fixed_keys = run.fixed_filter_bits = run.unfiltered_keys = 0;
  }
  for (RunCensus& run : free->levels)
    run.fixed_keys = run.fixed_filter_bits = run.unfiltered_keys = 0;
  return free;
}

std::vector<TableAgainstPlan> TablesAgainstPlan(const FilterOptions& options,
                                                const std::shared_ptr<const TreeRuns>& runs,
                                                const CacheSite* cache, CachePlanMemo* plans,
                                                const TableHost& host,
                                                const std::vector<BuiltTable>& tables) {
  std::vector<TableAgainstPlan> against;
  if (runs == nullptr) return against;
  const int deepest = DeepestLevel(*runs);
  const std::shared_ptr<TreeRuns> free = FreeTree(options, *runs, cache);
  free->deepest_unfiltered = host.deepest_unfiltered;
  for (const BuiltTable& table : tables) {
    if (table.entries <= 0) continue;
    const TableTraffic* l0 = L0TableToPlan(options, *runs, cache, host, table);
    if (table.level < 1 && l0 == nullptr) continue;
    TableSite site;
    site.tree_has_levels = host.tree_has_levels;
    site.level = table.level;
    // Where the host leaves bottommost tables unfiltered, RocksDB's rule
    // for one: those above the deepest level with nothing below their range
    // too. Planned so, such a table is on the plan without a filter, and
    // one built with a filter (when a table lay below) frees it.
    site.bottommost = table.level == 0
                          ? host.bytewise && L0Bottommost(table, tables)
                          : table.level >= deepest || (host.deepest_unfiltered && host.bytewise &&
                                                       NothingBelow(table, tables));
    TableChoice choice = ChooseForSite(options, site, free, cache, plans);
    const double share = cache == nullptr ? PlanByRange(table, &choice) : 0;
    double planned = 0;
    if (!choice.no_filter) {
      const FilterSetting setting = FilterSettingOf(choice);
      if (setting == nullptr) continue;
      planned = PlannedSpend(options, choice, setting, table, cache);
    }
    const double built = table.filter_bits / table.entries;
    if (share > 0 && TooYoungToPlan(*runs, table)) planned = built;
    const double sampled =
        share > 0 && runs->traffic != nullptr
            ? runs->traffic->SampledAt(table.level, table.smallest, table.largest)
            : 0;
    against.push_back({table.number, table.level, table.entries, table.file_bytes, built, planned,
                       share, sampled, l0 != nullptr ? l0->uniform : 0});
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
