#include "filter/plan/table_choice.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>

#include "absl/strings/str_format.h"
#include "filter/allocation/encoding_model_memo.h"
#include "filter/allocation/level_encoding.h"
#include "filter/allocation/table_fp_target.h"

namespace sstfilter {

bool SizedByTree(const FilterOptions& options, const TableSite& site) {
  return options.optimize_levels && site.in_tree();
}

namespace {

// The options with the plan's budget in budget_mb, where it is less.
FilterOptions WithPlanBudget(FilterOptions options, const CachePlan& plan) {
  if (plan.budget_bits <= 0) return options;
  const double mb = plan.budget_bits / (8.0 * 1024 * 1024);
  options.budget_mb = std::min(options.budget_mb.value_or(mb), mb);
  return options;
}

const char* HitShareSource(HitShareFrom from) {
  switch (from) {
    case HitShareFrom::kStated:
      return "hit_share";
    case HitShareFrom::kObserved:
      return "the DB's statistics";
    case HitShareFrom::kCarried:
      return "the DB's statistics before it reopened";
    case HitShareFrom::kAssumed:
      break;
  }
  return "assumed";
}

std::string SpreadOf(const CachePlan& plan) {
  if (plan.spread_slices == 0) return "uniformly over the keys";
  std::string spread = absl::StrFormat("as %d tables' sampled reads say", plan.spread_slices);
  if (plan.hot_width < kUnsharpened) {
    absl::StrAppendFormat(&spread,
                          ", each table's %.0f%% on %.1f%% of its keys (fit to the filter "
                          "misses the DB's statistics count)",
                          100 * (1 - plan.hot_width), 100 * plan.hot_width);
  }
  return spread;
}

std::string Describe(const CachePlan& plan, int level, double capacity) {
  constexpr double kMib = 1024.0 * 1024;
  return absl::StrFormat(
      "cache_aware: a table at L%d, block cache %.2f MiB: filters of %.3f MiB (budget %.3f MiB)"
      "%s, %.3f + %.3f + %.3f = %.3f device reads per Get by the model, %.1f%% of Gets "
      "finding their key (%s), spread %s",
      level, capacity / kMib, plan.filter_bytes / kMib, plan.budget_bits / 8 / kMib,
      plan.unfiltered_from == CachePlan::kAllFiltered
          ? ""
          : absl::StrFormat(", none at L%d and below", plan.unfiltered_from),
      plan.reads.filter, plan.reads.index, plan.reads.data, plan.reads.total(),
      100 * plan.hit_share, HitShareSource(plan.hit_share_from),
      SpreadOf(plan));
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
  if (given.cache_aware && cache != nullptr) {
    plan = PlanForTable(given, runs, place.level, *cache, plans);
    choice.plan = Describe(plan, place.level, cache->capacity_bytes);
  }
  if (place.level > 0 && place.level >= plan.unfiltered_from) {
    choice.no_filter = true;
    return choice;
  }
  const FilterOptions options = WithPlanBudget(given, plan);
  const int unfiltered_from = plan.unfiltered_from;
  const bool per_filter = place.level > 0 && TrafficFor(options, *runs) != nullptr;
  choice.setting = [options, runs = std::move(runs), place, per_filter, unfiltered_from,
                    fp = std::optional<double>()](const FilterKeys& keys) mutable {
    if (!fp.has_value() || per_filter) {
      fp = TableFpTarget(options, *runs, place, keys, unfiltered_from);
    }
    return MemoBitsPerKeyForFp(place.encoding, std::max<size_t>(keys.entries, 1), *fp,
                               kTableBitsPrecision);
  };
  choice.reads_range = per_filter;
  return choice;
}

}  // namespace sstfilter
