#include "filter/allocation/table_fp_rule.h"

#include <algorithm>

namespace sstfilter {

double FilterFp(const TableFpRule& rule, const FilterKeys& keys) {
  if (!rule.by_range.has_value() || !keys.has_range) return rule.fp;
  const TableFpRule::ByRange& range = *rule.by_range;
  const double n = static_cast<double>(std::max<size_t>(keys.entries, 1));
  const double share = range.traffic->ShareOf(keys.smallest, keys.largest);
  const double reach =
      share > 0 ? share : UniformShare(range.level_reach, n, std::max(range.level_keys, n));
  return RunFpAt(range.mu, n, range.slope, reach, range.factor);
}

}  // namespace sstfilter
