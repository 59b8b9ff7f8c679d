// The model's answer for a table being built: the encoding of its filters
// (level_encoding.h) and, under optimize_levels, the bits/key of each of
// them, from the tree it is sized for (the census's,
// table/census/table_tree.h) and where it sits (table_site.h).
#ifndef SSTFILTER_FILTER_PLAN_TABLE_CHOICE_H_
#define SSTFILTER_FILTER_PLAN_TABLE_CHOICE_H_

#include <memory>
#include <optional>

#include "filter/allocation/filter_keys.h"
#include "filter/allocation/table_fp_rule.h"
#include "filter/allocation/table_site.h"
#include "filter/allocation/tree_runs.h"
#include "filter/encoding_id.h"
#include "filter/filter_options.h"
#include "filter/plan/cache_budget.h"
#include "filter/plan/cache_plan_memo.h"

namespace sstfilter {

// The cache-aware plan a table was sized under, and for which level and
// cache: why it got its bits (the budget, the levels left unfiltered, the
// reads the model predicts, the share of Gets found and whence).
struct PlanUsed {
  CachePlan plan;
  int level = 0;           // The run the table joins (0: a flush or L0).
  double cache_bytes = 0;  // The block cache's share the plan was made for.
  // The table was built at the uniform setting instead: the share of Gets
  // found was assumed (ChooseForSite).
  bool uniform = false;
};

struct TableChoice {
  EncodingId encoding = kDefaultEncoding;
  // Sized by the tree: each filter's FP (table_fp_rule.h), met by the
  // encoding's own model at the filter's size (FilterSettingOf); nullopt:
  // the uniform setting applies.
  std::optional<TableFpRule> fp_rule;
  // The table gets no filter: the cache-aware plan leaves its level
  // without filters, or the host writes it without one (a bottommost
  // table where TreeRuns::deepest_unfiltered).
  bool no_filter = false;
  // With cache_aware (and the filters in a block cache), the plan the table
  // was sized under; nullopt otherwise. plan_text.h words it.
  std::optional<PlanUsed> plan;

  // With access_aware, once the tree's traffic is known, each filter of a
  // table below L0 (a partition, with partitioned filters) is sized for its
  // own key range: only then does the builder track its keys' range.
  bool reads_range() const { return fp_rule.has_value() && fp_rule->by_range.has_value(); }
};

// Whether a table at `site` is sized for its tree: optimize_levels on and
// the table in the tree. Only then is a tree to be found for it.
bool SizedByTree(const FilterOptions& options, const TableSite& site);

// The choice for a table at `site` of `runs` (null: no tree known for it,
// the uniform setting), whole, before the table holds anything. With
// cache_aware and `cache` (null: the filters are not in a block cache, as
// optimize_levels alone), the budget is the cache's (cache_budget.h:
// PlanForCache over the tree as TableFpRuleFor sees it, through `plans`,
// the column family's memo, where there is one), or budget_mb if less;
// while the share of Gets found is assumed and no budget_mb is stated, the
// uniform setting (plan->uniform), the plan only said.
// Sized by the tree, the FP rule is TableFpRuleFor's (table_fp_target.h)
// for the site's entries, or the tree's expectation for its level.
// REQUIRES: options resolved.
TableChoice ChooseForSite(const FilterOptions& options, const TableSite& site,
                          std::shared_ptr<const TreeRuns> runs,
                          const CacheSite* cache = nullptr, CachePlanMemo* plans = nullptr);

// The setting (bits/key) of each of the table's filters as it finishes:
// the bits that meet FilterFp(rule, keys) by the encoding's own model at
// the filter's size; empty where the uniform setting applies. Arithmetic
// on the choice and the encoding's sizing: no tree, no allocation.
FilterSetting FilterSettingOf(const TableChoice& choice);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_PLAN_TABLE_CHOICE_H_
