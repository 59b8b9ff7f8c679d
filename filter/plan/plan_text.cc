#include "filter/plan/plan_text.h"

#include <string>

#include "absl/strings/str_format.h"

namespace sstfilter {

namespace {

const char* HitShareSource(HitShareFrom from) {
  switch (from) {
    case HitShareFrom::kStated:
      return "hit_share";
    case HitShareFrom::kObserved:
      return "the DB's Gets";
    case HitShareFrom::kCarried:
      return "the DB's Gets before it reopened";
    case HitShareFrom::kAssumed:
      break;
  }
  return "assumed";
}

// Where the share came from; a plan robust over every share says so.
std::string HitShareSourceOf(const CachePlan& plan) {
  if (plan.robust_worst <= 0) return HitShareSource(plan.hit_share_from);
  return absl::StrFormat(
      "%s; planned for any share: its reads within %.2fx of the best plan's at each of 0-100%%",
      HitShareSource(plan.hit_share_from), plan.robust_worst);
}

std::string SpreadOf(const CachePlan& plan) {
  if (plan.spread_slices == 0) return "uniformly over the keys";
  std::string spread = absl::StrFormat("as %d tables' sampled reads say", plan.spread_slices);
  if (plan.hot_width < kUnsharpened) absl::StrAppend(&spread, ", ", SpreadFitText(plan.hot_width));
  return spread;
}

}  // namespace

std::string SpreadFitText(double hot_width) {
  if (hot_width >= kUnsharpened) return "";
  return absl::StrFormat(
      "each table's %.0f%% on %.1f%% of its keys (fit to the filter misses the DB's statistics "
      "count)",
      100 * (1 - hot_width), 100 * hot_width);
}

std::string DescribePlan(const PlanUsed& used) {
  const CachePlan& plan = used.plan;
  constexpr double kMib = 1024.0 * 1024;
  const std::string uniform =
      used.uniform ? ": the uniform setting until the DB's Gets tell the share they find; the plan "
                     "for when they do"
                   : "";
  return absl::StrFormat(
      "cache_aware: a table at L%d%s, block cache %.2f MiB: filters of %.3f MiB (budget %.3f MiB)"
      "%s, %.3f + %.3f + %.3f = %.3f device reads per Get by the model, %.1f%% of Gets "
      "finding their key (%s), spread %s",
      used.level, uniform, used.cache_bytes / kMib, plan.filter_bytes / kMib,
      plan.budget_bits / 8 / kMib,
      plan.unfiltered_from == CachePlan::kAllFiltered
          ? ""
          : absl::StrFormat(", none at L%d and below", plan.unfiltered_from),
      plan.reads.filter, plan.reads.index, plan.reads.data, plan.reads.total(),
      100 * plan.hit_share, HitShareSourceOf(plan), SpreadOf(plan));
}

}  // namespace sstfilter
