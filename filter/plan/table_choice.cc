#include "filter/plan/table_choice.h"

#include <algorithm>
#include <cstddef>
#include <utility>

#include "filter/allocation/encoding_model_memo.h"
#include "filter/allocation/level_encoding.h"
#include "filter/allocation/table_fp_target.h"

namespace sstfilter {

bool SizedByTree(const FilterOptions& options, const TableSite& site) {
  return options.per_level.optimize_levels && site.in_tree();
}

namespace {

// The options with the plan's budget in budget_mb, where it is less.
FilterOptions WithPlanBudget(FilterOptions options, const CachePlan& plan) {
  if (plan.budget_bits <= 0) return options;
  const double mb = plan.budget_bits / (8.0 * 1024 * 1024);
  options.per_level.budget_mb = std::min(options.per_level.budget_mb.value_or(mb), mb);
  return options;
}

// Nothing known of the Gets to come (the share of them that find their
// key assumed) and no byte budget stated: the uniform setting, the same
// bits at every level. A plan for one share, or one robust over all of
// them, is made for the tree as it is when each table is built, and a fill
// builds most tables while the tree is a fraction of its final size: the
// levels it leaves are split for trees it no longer is. Once the Gets tell
// their share, the rebuild loop brings the tables to the plan.
bool UniformWhileAssumed(const FilterOptions& given, const CachePlan& plan) {
  return plan.hit_share_from == HitShareFrom::kAssumed && !given.per_level.budget_mb.has_value();
}

}  // namespace

// A table's setting for its FP target is searched to this precision (the
// models' bits for an FP rate to kFpTargetBitsPrecision): each of a
// search's last steps is a model evaluation no other table shares, and
// the targets move with every plan. It spends at most this much more per
// key than the fewest that meet the target.
constexpr double kTableBitsPrecision = 1.0 / 64;

TableChoice ChooseForSite(const FilterOptions& given, const TableSite& site,
                          std::shared_ptr<const TreeRuns> runs, const CacheSite* cache,
                          CachePlanMemo* plans) {
  TableChoice choice;
  choice.encoding = EncodingForSite(given, site);
  if (!SizedByTree(given, site) || runs == nullptr) return choice;
  const TablePlace place{site.run_level(), choice.encoding};
  CachePlan plan;
  if (given.per_level.cache_aware && cache != nullptr) {
    plan = PlanForTable(given, runs, place.level, *cache, plans);
    const bool uniform = UniformWhileAssumed(given, plan);
    choice.plan = PlanUsed{plan, place.level, cache->capacity_bytes, uniform};
    if (uniform) return choice;
  }
  // RocksDB asks for no bottommost table's filter under
  // optimize_filters_for_hits: a table it asks for keeps one, wherever the
  // census's tree puts the deepest level.
  const bool host_leaves_bare = runs->deepest_unfiltered && site.bottommost;
  if (host_leaves_bare || (place.level > 0 && place.level >= plan.unfiltered_from)) {
    choice.no_filter = true;
    return choice;
  }
  const double entries =
      site.entries > 0 ? site.entries : ExpectedTableEntries(*runs, place.level);
  choice.fp_rule = TableFpRuleFor(WithPlanBudget(given, plan), *runs, place, entries,
                                  plan.unfiltered_from);
  return choice;
}

FilterSetting FilterSettingOf(const TableChoice& choice) {
  if (!choice.fp_rule.has_value()) return nullptr;
  return [rule = *choice.fp_rule, encoding = choice.encoding](const FilterKeys& keys) {
    return MemoBitsPerKeyForFp(encoding, std::max<size_t>(keys.entries, 1), FilterFp(rule, keys),
                               kTableBitsPrecision);
  };
}

}  // namespace sstfilter
