// A table's FP target as a value: what the allocation (table_fp_target.h)
// decided for the table when its build began, from which each of its
// filters' FP follows by arithmetic alone. The builder keeps it and asks it
// at each filter's Finish; nothing is solved there.
#ifndef SSTFILTER_FILTER_ALLOCATION_TABLE_FP_RULE_H_
#define SSTFILTER_FILTER_ALLOCATION_TABLE_FP_RULE_H_

#include <memory>
#include <optional>

#include "filter/allocation/filter_keys.h"
#include "filter/allocation/run_allocation.h"
#include "filter/allocation/tree_traffic.h"

namespace sstfilter {

struct TableFpRule {
  // Every filter's FP: the run's the table joins.
  double fp = kMaxRunFpRate;
  // Access-aware (the tree's traffic known, the table below L0): a filter
  // whose key range is known is a run of its own, reached by the Gets its
  // range drew (TreeTraffic::ShareOf; where no live table held the range,
  // its keys' share of the level's reach), its FP the allocation's rule
  // (RunFpAt) at the multiplier, slope and repaying factor the table's
  // level got.
  struct ByRange {
    std::shared_ptr<const TreeTraffic> traffic;
    double mu = 0, slope = 1, factor = 1;
    double level_keys = 0, level_reach = 1;
    // > 0: the level whose tables' share of a range it takes
    // (TreeTraffic::ShareAt: a live table of it rewritten in place, or
    // planned so); 0: the level that saw the most of the range (ShareOf).
    int own_level = 0;
  };
  std::optional<ByRange> by_range;
};

// The FP of the table's filter holding `keys`: rule.fp, or by its range.
double FilterFp(const TableFpRule& rule, const FilterKeys& keys);

// The share of the Gets a filter holding `keys` is sized for by its range
// (the reach FilterFp weighs it by); 0 where the rule is not by range or
// the keys' range is not known.
double RangeReach(const TableFpRule& rule, const FilterKeys& keys);

}  // namespace sstfilter

#endif  // SSTFILTER_FILTER_ALLOCATION_TABLE_FP_RULE_H_
