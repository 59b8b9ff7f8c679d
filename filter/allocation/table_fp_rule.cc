#include "filter/allocation/table_fp_rule.h"

#include <algorithm>
#include <optional>

namespace sstfilter {

namespace {

// The reach FilterFp weighs a by-range filter by; none where the rule is
// not by range or the range is not known.
std::optional<double> ReachOfRange(const TableFpRule& rule, const FilterKeys& keys) {
  if (!rule.by_range.has_value() || !keys.has_range) return std::nullopt;
  const TableFpRule::ByRange& range = *rule.by_range;
  const double n = static_cast<double>(std::max<size_t>(keys.entries, 1));
  const double share = range.own_level > 0
                           ? range.traffic->ShareAt(range.own_level, keys.smallest, keys.largest)
                           : range.traffic->ShareOf(keys.smallest, keys.largest);
  return share > 0 ? share : UniformShare(range.level_reach, n, std::max(range.level_keys, n));
}

}  // namespace

double RangeReach(const TableFpRule& rule, const FilterKeys& keys) {
  return ReachOfRange(rule, keys).value_or(0);
}

double FilterFp(const TableFpRule& rule, const FilterKeys& keys) {
  const std::optional<double> reach = ReachOfRange(rule, keys);
  if (!reach.has_value()) return rule.fp;
  const TableFpRule::ByRange& range = *rule.by_range;
  const double n = static_cast<double>(std::max<size_t>(keys.entries, 1));
  return RunFpAt(range.mu, n, range.slope, *reach, range.factor);
}

}  // namespace sstfilter
